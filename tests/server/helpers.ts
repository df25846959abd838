import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import type { Config } from '../../server/config';
import { configFromEnv } from '../../server/config';
import { hashPassword } from '../../server/auth/password';
import { Role, UserStatus, type RoleId, type UserStatusId } from '../../src/domain/roles';
import type { User } from '../../src/domain/user';

// Starts the real server on a free port for one test file: a temporary SQLite file by default, or a
// fresh PostgreSQL database when TEST_DATABASE_URL is set (CI runs the suite both ways).

export const API = '/api/v1/service';
export const TEST_PASSWORD = 'password1';

export interface TestServer {
  app: FastifyInstance;
  url: string;
  config: Config;
  /** Calls the API; `token` signs the call with a session from `login`. */
  call: (method: string, pathAndQuery: string, opts?: CallOptions) => Promise<CallResult>;
  login: (email: string, password?: string) => Promise<Session>;
  createUser: (opts: {
    email?: string;
    role?: RoleId;
    status?: UserStatusId;
    organizationId?: number | null;
    fullname?: string;
  }) => Promise<User>;
  createOrganization: (name?: string, type?: number) => Promise<number>;
  /** Creates a user of the role and signs them in. */
  as: (role: RoleId, opts?: { organizationId?: number | null; email?: string }) => Promise<Session>;
  close: () => Promise<void>;
}

export interface Session {
  user: User;
  accessToken: string;
  refreshToken: string;
}

export interface CallOptions {
  body?: unknown;
  rawBody?: BodyInit;
  session?: Session | { accessToken?: string; refreshToken?: string };
  headers?: Record<string, string>;
  locale?: 'ru' | 'en';
}

export interface CallResult {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever came back
}

export async function createPgDatabase(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export async function startServer(overrides: (c: Config) => void = () => {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-test-'));
  const pgDb = process.env.TEST_DATABASE_URL ? await createPgDatabase(process.env.TEST_DATABASE_URL) : null;
  const config = configFromEnv({});
  config.dataDir = dataDir;
  config.databaseUrl = pgDb?.url ?? null;
  config.staticDir = null;
  config.publicUrl = 'http://localhost:0';
  config.auth.scryptLogN = 10; // fast hashes in tests; production uses 2^17
  config.auth.reuseGraceMs = 0;
  overrides(config);
  const app = await buildApp(config, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  const passwordHash = await hashPassword(TEST_PASSWORD, config.auth.scryptLogN);

  const call: TestServer['call'] = async (method, pathAndQuery, opts = {}) => {
    const headers: Record<string, string> = { 'accept-language': opts.locale ?? 'en', ...opts.headers };
    let body: BodyInit | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    if (opts.session?.accessToken) headers['x-auth-token'] = opts.session.accessToken;
    if (opts.session?.refreshToken) headers['x-refresh-token'] = opts.session.refreshToken;
    const res = await fetch(url + (pathAndQuery.startsWith('/api') ? pathAndQuery : API + pathAndQuery), {
      method,
      headers,
      body,
    });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed };
  };

  let counter = 0;
  const createOrganization: TestServer['createOrganization'] = async (
    name = `Org ${++counter}`,
    type = 1,
  ) => {
    const row = await app.db
      .insertInto('organizations')
      .values({ name, type, category_id: null, created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  };

  const createUser: TestServer['createUser'] = async (opts) => {
    const now = Date.now();
    const row = await app.db
      .insertInto('users')
      .values({
        email: (opts.email ?? `user${++counter}-${crypto.randomBytes(3).toString('hex')}@example.com`)
          .trim()
          .toLowerCase(),
        fullname: opts.fullname ?? 'Test User',
        role_id: opts.role ?? Role.Researcher,
        status_id: opts.status ?? UserStatus.Activated,
        organization_id: opts.organizationId ?? null,
        category_id: null,
        password_hash: passwordHash,
        locale: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { findUserById } = await import('../../server/repos/users');
    return (await findUserById(app.db, row.id))!;
  };

  const login: TestServer['login'] = async (email, password = TEST_PASSWORD) => {
    const res = await call('POST', '/authentication/login', { body: { email, password } });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
    return {
      user: res.body.user,
      accessToken: res.headers.get('x-auth-token')!,
      refreshToken: res.headers.get('x-refresh-token')!,
    };
  };

  const as: TestServer['as'] = async (role, opts = {}) => {
    const organizationId =
      opts.organizationId === undefined ? await createOrganization() : opts.organizationId;
    const user = await createUser({ role, organizationId, email: opts.email });
    return login(user.email);
  };

  return {
    app,
    url,
    config,
    call,
    login,
    createUser,
    createOrganization,
    as,
    close: async () => {
      await app.close();
      await pgDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
