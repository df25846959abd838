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
  /** Operations (server/ops, docs/operations.md). */
  ops: {
    /** SHUTDOWN_DELAY_MS: how long the server keeps serving after SIGTERM, /readyz already 503, so balancers notice. */
    shutdownDelayMs: number;
    /** SHUTDOWN_TIMEOUT_MS: how long the calls in flight (and the callback sender's) get to finish after that. */
    shutdownTimeoutMs: number;
    /** METRICS_TOKEN: GET /metrics answers only with `Authorization: Bearer <token>`; unset, there is no /metrics. */
    metricsToken: string | null;
  };
  /**
   * DOWNLOAD_THREADS: worker threads the report downloads and the /report page's JSON run in
   * (server/reports/download-threads.ts), at most 4; 0 makes them on the main thread.
   */
  downloadThreads: number;
  /** Block callbacks' sender (server/callbacks, docs/decisions/callbacks.md). */
  callbacks: {
    /** CALLBACK_ALLOW_HOSTS: hosts ("host" or "host:port") exempt from the address check. */
    allowHosts: string[];
    /** CALLBACK_RETRY_BASE_MS: the first gap between attempts, doubling after each. */
    retryBaseMs: number;
    /** CALLBACK_MAX_ATTEMPTS: attempts before a delivery is given up. */
    maxAttempts: number;
    /** CALLBACK_LEASE_MS: how long a sender's claim holds (at most 60 s). */
    leaseMs: number;
    /** CALLBACK_POLL_MS: how often a sender looks for due deliveries written by other processes. */
    pollMs: number;
    /** CALLBACK_SENDER=off: this process writes deliveries but sends none. */
    sender: boolean;
    /** CALLBACK_KEEP_ALIVE=off: a new connection for every call (else kept per checked address). */
    keepAlive: boolean;
  };
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
    ops: {
      shutdownDelayMs: Math.min(600_000, Math.max(0, intFromEnv(env.SHUTDOWN_DELAY_MS, 5000))),
      shutdownTimeoutMs: Math.min(600_000, Math.max(0, intFromEnv(env.SHUTDOWN_TIMEOUT_MS, 20_000))),
      metricsToken: env.METRICS_TOKEN || null,
    },
    downloadThreads: Math.min(4, Math.max(0, Math.floor(intFromEnv(env.DOWNLOAD_THREADS, 4)))),
    callbacks: {
      allowHosts: (env.CALLBACK_ALLOW_HOSTS ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
      retryBaseMs: Math.max(1, intFromEnv(env.CALLBACK_RETRY_BASE_MS, 30_000)),
      maxAttempts: Math.min(100, Math.max(1, Math.floor(intFromEnv(env.CALLBACK_MAX_ATTEMPTS, 12)))),
      leaseMs: Math.min(60_000, Math.max(6_000, intFromEnv(env.CALLBACK_LEASE_MS, 60_000))),
      pollMs: Math.max(10, intFromEnv(env.CALLBACK_POLL_MS, 1000)),
      sender: env.CALLBACK_SENDER !== 'off',
      keepAlive: env.CALLBACK_KEEP_ALIVE !== 'off',
    },
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
