import path from 'node:path';

// Everything the server reads from its environment, in one place. Tests build a Config directly
// (see tests/server/helpers.ts) instead of touching process.env.

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** postgres://… switches the database to PostgreSQL; unset means the SQLite file under dataDir. */
  databaseUrl: string | null;
  adminEmail: string;
  adminPassword: string | null;
  publicUrl: string;
  smtpUrl: string | null;
  /** The sender of every mail; unset: no-reply@<host of publicUrl> when that is a domain name (server/mail/mailer.ts). */
  mailFrom: string | null;
  analyticsUrl: string | null;
  statisticsUrl: string | null;
  /** Where the built SPA lives; null serves the API only. */
  staticDir: string | null;
  trustProxy: boolean;
  logLevel: string;
  auth: {
    /** log2 of scrypt's N. 17 in production (DESIGN.md 5); tests lower it to stay fast. */
    scryptLogN: number;
    accessTtlMs: number;
    /** Absolute lifetime of a sign-in: refresh tokens stop working after this, however used. */
    familyTtlMs: number;
    /** A refresh token replayed within this window after its rotation is a concurrent request, not a theft. */
    reuseGraceMs: number;
    loginPerAccountPerHour: number;
    loginPerIpPerHour: number;
  };
}

function intFromEnv(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value && Number.isFinite(n) ? n : fallback;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intFromEnv(env.PORT, 8080);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL?.startsWith('postgres') ? env.DATABASE_URL : null,
    adminEmail: (env.ADMIN_EMAIL || 'admin@example.com').trim().toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD || null,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || null,
    analyticsUrl: env.ANALYTICS_URL || null,
    statisticsUrl: env.STATISTICS_URL || null,
    staticDir: env.STATIC_DIR === '' ? null : path.resolve(env.STATIC_DIR || './dist'),
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    logLevel: env.LOG_LEVEL || 'info',
    auth: {
      scryptLogN: intFromEnv(env.SCRYPT_LOG_N, 17),
      accessTtlMs: 15 * 60_000,
      familyTtlMs: 30 * 24 * 3600_000,
      reuseGraceMs: 10_000,
      loginPerAccountPerHour: 100,
      loginPerIpPerHour: 1000,
    },
  };
}
