import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { Role } from '../../src/domain/roles';

// The lists answer their page and its full count (X-Total-Count) from one statement
// (docs/decisions/reads.md); the count must stay right where no row carries it: an empty list, a
// page past the end. And a project's target platforms, read in the same statement, stay sorted.

let server: TestServer;
let admin: Session;
let issuer: Session;
let org: number;

beforeAll(async () => {
  server = await startServer();
  org = await server.createOrganization('Counted');
  admin = await server.as(Role.Administrator, { organizationId: org });
  issuer = await server.as(Role.Issuer, { organizationId: org });
});
afterAll(() => server.close());

const total = (res: { headers: Headers }) => Number(res.headers.get('x-total-count'));

describe('counts ride with the page', () => {
  it('GET /projects: page 1, a page past the end, an empty search, and sorted platforms', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await server.call('POST', '/projects', {
        session: admin,
        body: {
          name: `Counted ${i}`,
          template: 'default',
          priority: 0,
          organizationId: org,
          targetPlatformIds: [3, 1],
        },
      });
      expect(res.status).toBe(201);
    }
    const first = await server.call('GET', '/projects?search=counted&pageSize=2', { session: admin });
    expect(first.body).toHaveLength(2);
    expect(total(first)).toBe(5);
    expect(first.body[0].targetPlatformIds).toEqual([1, 3]);
    const past = await server.call('GET', '/projects?search=counted&pageSize=2&page=9', { session: admin });
    expect(past.body).toEqual([]);
    expect(total(past)).toBe(5);
    const none = await server.call('GET', '/projects?search=nothing-like-it', { session: admin });
    expect(none.body).toEqual([]);
    expect(total(none)).toBe(0);
  });

  it('GET /users: page 1 and a page past the end', async () => {
    for (let i = 0; i < 3; i++)
      await server.createUser({ role: Role.Moderator, email: `counted${i}@example.com` });
    const first = await server.call('GET', '/users?roles=2&search=counted&pageSize=2', { session: admin });
    expect(first.body).toHaveLength(2);
    expect(total(first)).toBe(3);
    const past = await server.call('GET', '/users?roles=2&search=counted&pageSize=2&page=5', {
      session: admin,
    });
    expect(past.body).toEqual([]);
    expect(total(past)).toBe(3);
    const none = await server.call('GET', '/users?roles=2&search=nobody-here', { session: admin });
    expect(total(none)).toBe(0);
  });

  it('GET /games: page 1 and a page past the end', async () => {
    const lookups = {
      genreId: (await server.app.db.selectFrom('game_genres').select('id').executeTakeFirstOrThrow()).id,
      platformId: (await server.app.db.selectFrom('game_platforms').select('id').executeTakeFirstOrThrow())
        .id,
      currencyId: (await server.app.db.selectFrom('game_currencies').select('id').executeTakeFirstOrThrow())
        .id,
    };
    for (let i = 0; i < 3; i++) {
      const res = await server.call('POST', '/games', {
        session: issuer,
        body: { name: `Counted game ${i}`, ...lookups, url: 'https://example.com/game' },
      });
      expect(res.status).toBe(201);
    }
    const first = await server.call('GET', '/games?pageSize=2', { session: issuer });
    expect(first.body).toHaveLength(2);
    expect(total(first)).toBe(3);
    const past = await server.call('GET', '/games?pageSize=2&page=4', { session: issuer });
    expect(past.body).toEqual([]);
    expect(total(past)).toBe(3);
    const none = await server.call('GET', '/games?search=nothing-like-it', { session: issuer });
    expect(total(none)).toBe(0);
  });
});
