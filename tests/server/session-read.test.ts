import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { API, startServer, type Session, type TestServer } from './helpers';
import { Role } from '../../src/domain/roles';

// The lists check a cached session's sign-in epoch in their own statement (server/http/session-read.ts):
// a session ended behind the servers' backs, or whose organization or role changed, must still be
// refused or rescoped on the very next call, whether the list's statement ran with the cached scope
// and read a row (the epoch rides on it), read none (an empty page: the epoch is read alone) or was
// never sent (a 403 decided from the cached role). Server B is a second instance of the real server
// on server A's database; every check first warms B's cache with two calls of the same list.

let a: TestServer;
let b: { app: FastifyInstance; url: string };
let org: number;
let lookups: { genreId: number; platformId: number; currencyId: number };

beforeAll(async () => {
  a = await startServer();
  const app = await buildApp(a.config, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  b = { app, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
  org = await a.createOrganization('Read org');
  const admin = await a.as(Role.Administrator, { organizationId: org });
  const [genres, platforms, currencies] = await Promise.all(
    ['/games/genres', '/games/platforms', '/games/currencies'].map((p) =>
      a.call('GET', p, { session: admin }),
    ),
  );
  lookups = {
    genreId: genres.body[0].id,
    platformId: platforms.body[0].id,
    currencyId: currencies.body[0].id,
  };
  for (let i = 0; i < 3; i++) {
    expect(
      (
        await a.call('POST', '/projects', {
          session: admin,
          body: {
            name: `Read ${i}`,
            template: 'default',
            priority: 0,
            organizationId: org,
            targetPlatformIds: [],
          },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await a.call('POST', '/games', {
          session: admin,
          body: { name: `Read game ${i}`, url: 'https://example.com/g', organizationId: org, ...lookups },
        })
      ).status,
    ).toBe(201);
  }
});
afterAll(async () => {
  await b.app.close();
  await a.close();
});

/** GET on server B, signed with the session's access token only (a refresh token could renew it). */
async function onB(path: string, s: Session) {
  const res = await fetch(`${b.url}${API}${path}`, {
    headers: { 'x-auth-token': s.accessToken, 'accept-language': 'en' },
  });
  return {
    status: res.status,
    total: res.headers.get('x-total-count'),
    body: res.headers.get('content-type')?.includes('json') ? await res.json() : null,
  };
}

async function warm(path: string, s: Session) {
  for (let i = 0; i < 2; i++) expect((await onB(path, s)).status).toBe(200);
}

const revoke = (s: Session) =>
  a.app.db
    .updateTable('auth_families')
    .set({ revoked_at: Date.now() })
    .where('user_id', '=', s.user.id)
    .execute();

/** Moves the sign-in epoch without touching this session: another user's row changes. */
const somebodyElseChanges = async () => {
  const other = await a.createUser({ role: Role.Researcher, organizationId: org });
  await a.app.db.updateTable('users').set({ fullname: 'Renamed' }).where('id', '=', other.id).execute();
};

const LISTS = ['/projects', '/users?roles=1', '/games'];

describe('a list checks its cached session in its own statement', () => {
  for (const path of LISTS) {
    it(`${path}: a session revoked in the database is refused on the next call`, async () => {
      const s = await a.as(Role.Administrator, { organizationId: org });
      await warm(path, s);
      await revoke(s);
      expect((await onB(path, s)).status).toBe(401);
    });

    it(`${path}: an empty page of a revoked session is refused too (no row carried the epoch)`, async () => {
      const s = await a.as(Role.Administrator, { organizationId: org });
      const empty = `${path}${path.includes('?') ? '&' : '?'}search=nothing-matches-this`;
      await warm(empty, s);
      expect((await onB(empty, s)).body).toEqual([]);
      await revoke(s);
      expect((await onB(empty, s)).status).toBe(401);
    });

    it(`${path}: when the epoch moved for somebody else, the same session still reads the same page`, async () => {
      const s = await a.as(Role.Administrator, { organizationId: org });
      await warm(path, s);
      const before = await onB(path, s);
      await somebodyElseChanges();
      const after = await onB(path, s);
      expect(after.status).toBe(200);
      expect(after.total).toBe(before.total);
      expect(after.body.length).toBe(before.body.length);
    });
  }

  it('a 403 decided from the cached role turns into 401 once the session is revoked', async () => {
    const issuer = await a.as(Role.Issuer, { organizationId: org });
    for (let i = 0; i < 2; i++) expect((await onB('/projects', issuer)).status).toBe(403);
    await revoke(issuer);
    expect((await onB('/projects', issuer)).status).toBe(401);
  });

  it('a Researcher moved to another organization sees that organization’s projects at once', async () => {
    const other = await a.createOrganization('Read other');
    const s = await a.as(Role.Researcher, { organizationId: other });
    await warm('/projects', s);
    expect((await onB('/projects', s)).total).toBe('0');
    await a.app.db.updateTable('users').set({ organization_id: org }).where('id', '=', s.user.id).execute();
    const moved = await onB('/projects', s);
    expect(moved.status).toBe(200);
    expect(moved.total).toBe('3');
    expect(moved.body.map((p: { name: string }) => p.name).sort()).toEqual(['Read 0', 'Read 1', 'Read 2']);
  });
});

// A list's compiled statements are kept by what they were built from (compiledOnce in server/db):
// the same query from callers of different organizations must never share one.
describe('the same page asked by callers of different organizations', () => {
  it('GET /projects: each Researcher sees their organization’s projects only', async () => {
    const other = await a.createOrganization('Read scope');
    const admin = await a.as(Role.Administrator, { organizationId: other });
    expect(
      (
        await a.call('POST', '/projects', {
          session: admin,
          body: {
            name: 'Scoped',
            template: 'default',
            priority: 0,
            organizationId: other,
            targetPlatformIds: [],
          },
        })
      ).status,
    ).toBe(201);
    const here = await a.as(Role.Researcher, { organizationId: org });
    const there = await a.as(Role.Researcher, { organizationId: other });
    for (let i = 0; i < 2; i++) {
      const mine = await onB('/projects?pageSize=50', here);
      const theirs = await onB('/projects?pageSize=50', there);
      expect(mine.body.every((p: { organization: { id: number } }) => p.organization.id === org)).toBe(true);
      expect(theirs.body.map((p: { name: string }) => p.name)).toEqual(['Scoped']);
    }
  });

  it('GET /games: each Issuer sees their organization’s games only', async () => {
    const other = await a.createOrganization('Read scope games');
    const here = await a.as(Role.Issuer, { organizationId: org });
    const there = await a.as(Role.Issuer, { organizationId: other });
    expect(
      (
        await a.call('POST', '/games', {
          session: there,
          body: { name: 'Scoped game', url: 'https://example.com/s', ...lookups },
        })
      ).status,
    ).toBe(201);
    for (let i = 0; i < 2; i++) {
      const mine = await onB('/games', here);
      const theirs = await onB('/games', there);
      expect(mine.body.map((g: { name: string }) => g.name).sort()).toEqual([
        'Read game 0',
        'Read game 1',
        'Read game 2',
      ]);
      expect(theirs.body.map((g: { name: string }) => g.name)).toEqual(['Scoped game']);
    }
  });
});

describe('list pages are compressed cheaply, to the same JSON', () => {
  beforeAll(async () => {
    // Enough rows for every page to pass the 1 KB threshold.
    const elsewhere = await a.createOrganization('Read elsewhere');
    const admin = await a.as(Role.Administrator, { organizationId: elsewhere });
    for (let i = 0; i < 6; i++)
      await a.call('POST', '/projects', {
        session: admin,
        body: {
          name: `Elsewhere ${i}`,
          template: 'default',
          priority: 0,
          organizationId: elsewhere,
          targetPlatformIds: [],
        },
      });
  });

  for (const path of LISTS)
    it(`${path}: brotli for a browser, the same rows as uncompressed`, async () => {
      const s = await a.as(Role.Administrator, { organizationId: org });
      const get = (encoding: string) =>
        fetch(`${a.url}${API}${path}`, {
          headers: { 'x-auth-token': s.accessToken, 'accept-encoding': encoding },
        });
      const br = await get('gzip, deflate, br');
      expect(br.headers.get('content-encoding')).toBe('br');
      const plain = await get('identity');
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(await br.json()).toEqual(await plain.json());
    });
});

// Statements per call, observed on the PostgreSQL driver itself: with a cached session a list page
// is one statement, its epoch riding on it (docs/decisions/reads.md).
describe.skipIf(!process.env.TEST_DATABASE_URL)('statements a list sends on PostgreSQL', () => {
  let sent = 0;
  const query = pg.Client.prototype.query;
  beforeAll(() => {
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      sent++;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
  });
  afterAll(() => {
    pg.Client.prototype.query = query;
  });

  for (const path of LISTS)
    it(`${path}: one statement with a cached session`, async () => {
      const s = await a.as(Role.Administrator, { organizationId: org });
      await warm(path, s);
      sent = 0;
      const res = await onB(path, s);
      expect(res.status).toBe(200);
      expect(res.body.length).toBeGreaterThan(0);
      expect(sent).toBe(1);
    });
});
