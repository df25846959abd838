import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { SessionCache } from '../../server/auth/session-cache';
import { API, startServer, TEST_PASSWORD, type Session, type TestServer } from './helpers';
import { Role, UserStatus } from '../../src/domain/roles';
import type { User } from '../../src/domain/user';

// Verified sessions are kept in memory for a few seconds (server/auth/session-cache.ts), yet
// logout, deactivation, deletion, a password change and a change of role or organization take
// effect at once, on this server and on another one sharing the database. Server B below is a
// second instance of the real server on server A's database (the same SQLite file, or the same
// PostgreSQL database); every check first warms B's cache with two calls.

let a: TestServer;
let b: { app: FastifyInstance; url: string };

beforeAll(async () => {
  a = await startServer();
  const app = await buildApp(a.config, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  b = { app, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
});
afterAll(async () => {
  await b.app.close();
  await a.close();
});

/** GET on server B, signed with the session's access token only. */
async function onB(path: string, s: Session) {
  const res = await fetch(`${b.url}${API}${path}`, {
    headers: { 'x-auth-token': s.accessToken, 'accept-language': 'en' },
  });
  return {
    status: res.status,
    body: res.headers.get('content-type')?.includes('json') ? await res.json() : null,
  };
}

async function warm(s: Session) {
  for (let i = 0; i < 2; i++) expect((await onB(`/user?uid=${s.user.id}`, s)).status).toBe(200);
}

const epoch = async (server: { app: FastifyInstance }) =>
  Number((await sql<{ n: number }>`select n from auth_epoch where id = 1`.execute(server.app.db)).rows[0].n);

describe('verified sessions kept in memory', () => {
  it('logout on one server ends the session on the other at once', async () => {
    const s = await a.as(Role.Researcher);
    await warm(s);
    const before = await epoch(a);
    expect((await a.call('POST', '/authentication/logout', { session: s })).status).toBe(204);
    expect(await epoch(a)).toBeGreaterThan(before);
    expect((await onB(`/user?uid=${s.user.id}`, s)).status).toBe(401);
    expect((await a.call('GET', `/user?uid=${s.user.id}`, { session: s })).status).toBe(401);
  });

  it('logout on the same server ends it at once too', async () => {
    const s = await a.as(Role.Researcher);
    for (let i = 0; i < 2; i++)
      expect(
        (await a.call('GET', `/user?uid=${s.user.id}`, { session: { accessToken: s.accessToken } })).status,
      ).toBe(200);
    await a.call('POST', '/authentication/logout', { session: s });
    expect(
      (await a.call('GET', `/user?uid=${s.user.id}`, { session: { accessToken: s.accessToken } })).status,
    ).toBe(401);
  });

  it('deactivation by an administrator ends every session of the user at once', async () => {
    const admin = await a.as(Role.Administrator);
    const s = await a.as(Role.Researcher);
    await warm(s);
    const res = await a.call('PUT', '/user', {
      session: admin,
      body: { id: s.user.id, statusId: UserStatus.Deactivated },
    });
    expect(res.status).toBe(200);
    expect((await onB(`/user?uid=${s.user.id}`, s)).status).toBe(401);
  });

  it('deletion ends the session at once', async () => {
    const admin = await a.as(Role.Administrator);
    const s = await a.as(Role.Researcher);
    await warm(s);
    expect((await a.call('DELETE', '/user', { session: admin, body: { id: s.user.id } })).status).toBe(200);
    expect((await onB(`/user?uid=${s.user.id}`, s)).status).toBe(401);
  });

  it('a password change ends the other sessions at once and keeps the one that changed it', async () => {
    const first = await a.as(Role.Researcher);
    const second = await a.login(first.user.email, TEST_PASSWORD);
    await warm(first);
    await warm(second);
    const res = await a.call('PUT', '/user/password-reset', {
      session: second,
      body: { userId: first.user.id, password: 'a-new-password-2' },
    });
    expect(res.status).toBe(200);
    expect((await onB(`/user?uid=${first.user.id}`, first)).status).toBe(401);
    expect((await onB(`/user?uid=${first.user.id}`, second)).status).toBe(200);
  });

  it('a session ended behind the servers’ backs (in the database) ends at once', async () => {
    const s = await a.as(Role.Researcher);
    await warm(s);
    await a.app.db
      .updateTable('auth_families')
      .set({ revoked_at: Date.now() })
      .where('user_id', '=', s.user.id)
      .execute();
    expect((await onB(`/user?uid=${s.user.id}`, s)).status).toBe(401);
  });

  it('a new organization decides what the user sees at once', async () => {
    const admin = await a.as(Role.Administrator);
    const orgA = await a.createOrganization('Cache A');
    const orgB = await a.createOrganization('Cache B');
    const s = await a.as(Role.Researcher, { organizationId: orgA });
    const created = await a.call('POST', '/projects', {
      session: admin,
      body: {
        name: 'Only in B',
        template: 'default',
        priority: 0,
        organizationId: orgB,
        targetPlatformIds: [],
      },
    });
    expect(created.status).toBe(201);
    const names = async () => ((await onB('/projects', s)).body as { name: string }[]).map((p) => p.name);
    expect(await names()).not.toContain('Only in B');
    expect(await names()).not.toContain('Only in B');
    const moved = await a.call('PUT', '/user', {
      session: admin,
      body: { id: s.user.id, organizationId: orgB },
    });
    expect(moved.status).toBe(200);
    expect(await names()).toContain('Only in B');
  });

  it('a role change ends the session at once', async () => {
    const admin = await a.as(Role.Administrator);
    const other = await a.as(Role.Administrator);
    await warm(other);
    expect((await onB('/users?roles=4', other)).status).toBe(200);
    const res = await a.call('PUT', '/user', {
      session: admin,
      body: { id: other.user.id, roles: [Role.Researcher], organizationId: await a.createOrganization() },
    });
    expect(res.status).toBe(200);
    expect((await onB('/users?roles=4', other)).status).toBe(401);
  });
});

describe('SessionCache', () => {
  const user = { id: 1 } as User;
  const entry = { user, userId: 1, familyId: 'f', accessExpiresAt: 10_000, familyExpiresAt: 20_000 };

  it('answers only under the epoch the session was verified under, in date, for a few seconds', () => {
    const cache = new SessionCache(a.app.db);
    cache.set('token', 7, entry, 1_000);
    expect(cache.get('token', 7, 1_500)?.familyId).toBe('f');
    expect(cache.get('other', 7, 1_500)).toBeNull();
    expect(cache.get('token', 8, 1_500)).toBeNull();
    // A different epoch drops the entry: it is not trusted again when the epoch reads 7 once more.
    expect(cache.get('token', 7, 1_500)).toBeNull();
    cache.set('token', 7, entry, 1_000);
    expect(cache.get('token', 7, 7_000)).toBeNull();
    cache.set('token', 7, { ...entry, accessExpiresAt: 2_000 }, 1_000);
    expect(cache.get('token', 7, 2_000)).toBeNull();
  });

  it('hands an ageing entry to one call to verify afresh while the others still use it', () => {
    const cache = new SessionCache(a.app.db);
    cache.set('token', 7, entry, 1_000);
    expect(cache.peek('token', 3_900)?.familyId).toBe('f');
    // Past SESSION_REFRESH_MS: the first call is told to verify (null), the next ones keep the entry.
    expect(cache.peek('token', 4_100)).toBeNull();
    expect(cache.peek('token', 4_200)?.familyId).toBe('f');
    expect(cache.get('token', 7, 4_300)?.familyId).toBe('f');
    // A claim that led to no new entry may be taken again a second later.
    expect(cache.get('token', 7, 5_200)).toBeNull();
    expect(cache.get('token', 7, 5_300)?.familyId).toBe('f');
    // The renewed entry is young again; peek ignores the epoch, get does not.
    cache.set('token', 8, entry, 5_400);
    expect(cache.peek('token', 5_500)?.epoch).toBe(8);
    expect(cache.get('token', 8, 8_300)?.familyId).toBe('f');
    // SESSION_CACHE_MS is still the limit, whoever renews.
    expect(cache.peek('token', 10_500)).toBeNull();
  });

  it('reads the epoch once for the calls of one turn of the event loop', async () => {
    const cache = new SessionCache(a.app.db);
    const [x, y] = [cache.epoch(), cache.epoch()];
    expect(x).toBe(y);
    expect(await x).toBe(await epoch(a));
    const before = await epoch(a);
    await a.app.db.updateTable('users').set({ updated_at: Date.now() }).where('id', '=', -1).execute();
    await sql`update users set updated_at = updated_at where id = (select min(id) from users)`.execute(
      a.app.db,
    );
    expect(await cache.epoch()).toBe(before + 1);
  });
});
