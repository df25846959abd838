import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startServer, TEST_PASSWORD, type TestServer } from './helpers';
import { Role, ROLES, USER_STATUSES, UserStatus } from '../../src/domain/roles';
import { tokenHash } from '../../server/auth/sessions';

// Signing in, sessions and their renewal, failed-login limits and bad input, on the real server
// (SQLite here; CI runs the same file against PostgreSQL).

describe('seeded lists', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('has the six roles and five statuses exactly as the spec lists them', async () => {
    const roles = await server.app.db.selectFrom('roles').selectAll().orderBy('id').execute();
    expect(roles).toEqual(
      ROLES.map((r) => ({
        id: r.id,
        name: r.name,
        description: r.description,
        created_at: 1642612313,
        deleted_at: 0,
      })),
    );
    expect(roles.map((r) => r.name)).toEqual([
      'Administrator',
      'Moderator',
      'Moderator VK',
      'Researcher',
      'Issuer',
      'DemoResearcher',
    ]);
    const statuses = await server.app.db.selectFrom('user_statuses').selectAll().orderBy('id').execute();
    expect(statuses).toEqual([...USER_STATUSES]);
    expect(statuses.map((s) => s.name)).toEqual([
      'Created',
      'Invitation sent',
      'Invitation accepted',
      'Activated',
      'Deactivated',
    ]);
  });
});

describe('login', () => {
  let server: TestServer;
  let email: string;
  beforeAll(async () => {
    server = await startServer();
    email = (await server.createUser({ role: Role.Researcher, email: 'Rita@Example.com' })).email;
  });
  afterAll(() => server.close());

  it('answers the user in the body and both tokens in headers', async () => {
    const res = await server.call('POST', '/authentication/login', {
      body: { email, password: TEST_PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      email: 'rita@example.com',
      role: { id: 4, name: 'Researcher' },
      statusId: 4,
    });
    expect(res.body.user.id).toBeGreaterThan(0);
    expect(res.body.id).toBe(res.body.user.id);
    expect(res.body.user).not.toHaveProperty('password_hash');
    expect(JSON.stringify(res.body)).not.toMatch(/scrypt/);
    expect(res.headers.get('x-auth-token')).toMatch(/^[\w-]{43}$/);
    expect(res.headers.get('x-refresh-token')).toMatch(/^[\w-]{43}$/);
  });

  it('ignores the case and surrounding spaces of the email', async () => {
    const res = await server.call('POST', '/authentication/login', {
      body: { email: '  RITA@example.COM ', password: TEST_PASSWORD },
    });
    expect(res.status).toBe(200);
  });

  it('stores only hashes of the tokens', async () => {
    const s = await server.login(email);
    const rows = await server.app.db.selectFrom('auth_tokens').selectAll().execute();
    const all = JSON.stringify(rows);
    expect(all).not.toContain(s.accessToken);
    expect(all).not.toContain(s.refreshToken);
    expect(rows.some((r) => r.access_hash === tokenHash(s.accessToken))).toBe(true);
  });

  it('refuses a wrong password and an unknown email with the same 401', async () => {
    const wrong = await server.call('POST', '/authentication/login', {
      body: { email, password: 'nope-1234' },
    });
    const unknown = await server.call('POST', '/authentication/login', {
      body: { email: 'ghost@example.com', password: 'nope-1234' },
    });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Wrong credentials', code: 'wrong-credentials' });
      expect(res.headers.get('x-auth-token')).toBeNull();
    }
  });

  it('answers in Russian when the caller asks for Russian', async () => {
    const res = await server.call('POST', '/authentication/login', {
      body: { email, password: 'nope-1234' },
      locale: 'ru',
    });
    expect(res.body.message).toBe('Неверные учётные данные');
  });

  it('refuses a deactivated user even with the right password', async () => {
    const u = await server.createUser({ role: Role.Researcher, status: UserStatus.Deactivated });
    const res = await server.call('POST', '/authentication/login', {
      body: { email: u.email, password: TEST_PASSWORD },
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('account-inactive');
  });

  it('writes a log entry for a sign-in', async () => {
    const before = await server.app.db.selectFrom('history').selectAll().where('email', '=', email).execute();
    await server.login(email);
    const after = await server.app.db.selectFrom('history').selectAll().where('email', '=', email).execute();
    expect(after.length).toBe(before.length + 1);
    expect(after.at(-1)).toMatchObject({
      chapter: 'auth',
      service: 'POST /authentication/login',
      message_key: 'shell.log.signedIn',
    });
  });
});

describe('bad bodies get a 4xx with a message, never a 500', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  const cases: [string, unknown, string][] = [
    ['missing password', { email: 'a@b.co' }, 'password'],
    ['missing email', { password: 'x' }, 'email'],
    ['wrong type', { email: 42, password: 'x' }, 'email'],
    ['invalid email', { email: 'not-an-email', password: 'x' }, 'email'],
    ['local part over 64', { email: `${'a'.repeat(65)}@example.com`, password: 'x' }, 'email'],
    ['domain over 255', { email: `a@${'b'.repeat(250)}.example.com`, password: 'x' }, 'email'],
    ['extra field', { email: 'a@b.co', password: 'x', admin: true }, 'admin'],
    ['an array', [], 'body'],
    ['null', null, 'body'],
  ];
  for (const [name, body, field] of cases) {
    it(`${name} → 400 naming ${field}`, async () => {
      const res = await server.call('POST', '/authentication/login', { body });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe(field);
      expect(res.body.message).toMatch(new RegExp(`^${field}: .+`));
    });
  }

  it('says a missing field is required and an unknown one is unknown', async () => {
    expect(
      (await server.call('POST', '/authentication/login', { body: { email: 'a@b.co' } })).body.message,
    ).toBe('password: This field is required');
    expect(
      (await server.call('POST', '/authentication/login', { body: { email: 'a@b.co', password: 'x', x: 1 } }))
        .body.message,
    ).toBe('x: Unknown field');
  });

  it('names the reason in words', async () => {
    const res = await server.call('POST', '/authentication/login', { body: { email: '', password: 'x' } });
    expect(res.body.message).toBe('email: This field is required');
    const bad = await server.call('POST', '/authentication/login', { body: { email: 'x@', password: 'x' } });
    expect(bad.body.message).toBe('email: Please enter a valid email');
  });

  it('invalid JSON → 400', async () => {
    const res = await server.call('POST', '/authentication/login', {
      rawBody: '{"email": "a@b',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The request body is not valid JSON');
  });

  it('an empty JSON body → 400', async () => {
    const res = await server.call('POST', '/authentication/login', {
      rawBody: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
  });

  it('a 2 MB body → 413', async () => {
    const res = await server.call('POST', '/authentication/login', {
      body: { email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('The request is too large');
  });

  it('an unsupported content type → 415', async () => {
    const res = await server.call('POST', '/authentication/login', {
      rawBody: 'email=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(typeof res.body.message).toBe('string');
  });

  it('an unknown API path → 404 JSON', async () => {
    const res = await server.call('GET', '/no-such-call');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Not found');
  });

  it('a bad uid → 400, a missing user → 404', async () => {
    const s = await server.as(Role.Administrator);
    expect((await server.call('GET', '/user?uid=abc', { session: s })).status).toBe(400);
    expect((await server.call('GET', '/user', { session: s })).status).toBe(400);
    expect((await server.call('GET', '/user?uid=999999', { session: s })).status).toBe(404);
  });
});

describe('who may read a user and set a password', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('a signed-out caller gets 401', async () => {
    const res = await server.call('GET', '/user?uid=1');
    expect(res.status).toBe(401);
  });

  it('a user reads themselves; another user is 403 except for an administrator', async () => {
    const a = await server.as(Role.Researcher);
    const b = await server.as(Role.Issuer);
    const admin = await server.as(Role.Administrator);
    expect((await server.call('GET', `/user?uid=${a.user.id}`, { session: a })).status).toBe(200);
    expect((await server.call('GET', `/user?uid=${b.user.id}`, { session: a })).status).toBe(403);
    const read = await server.call('GET', `/user?uid=${a.user.id}`, { session: admin });
    expect(read.status).toBe(200);
    expect(read.body.email).toBe(a.user.email);
  });

  it('a new password must follow the rules, also on the server', async () => {
    const a = await server.as(Role.Researcher);
    const call = (password: unknown) =>
      server.call('PUT', '/user/password-reset', { session: a, body: { userId: a.user.id, password } });
    expect((await call('NOLOWERCASE1')).body.message).toBe('password: Must contain a lowercase letter');
    expect((await call('nodigitshere')).body.message).toBe('password: Must contain a number');
    expect((await call('a1')).status).toBe(400);
    expect((await call('a1'.repeat(65))).status).toBe(400);
  });

  it('changing one’s password keeps this session and ends the others', async () => {
    const user = await server.createUser({ role: Role.Researcher });
    const here = await server.login(user.email);
    const elsewhere = await server.login(user.email);
    const res = await server.call('PUT', '/user/password-reset', {
      session: here,
      body: { userId: user.id, password: 'brandnew1' },
    });
    expect(res.status).toBe(200);
    expect((await server.call('GET', `/user?uid=${user.id}`, { session: here })).status).toBe(200);
    expect((await server.call('GET', `/user?uid=${user.id}`, { session: elsewhere })).status).toBe(401);
    expect(
      (
        await server.call('POST', '/authentication/login', {
          body: { email: user.email, password: TEST_PASSWORD },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await server.call('POST', '/authentication/login', {
          body: { email: user.email, password: 'brandnew1' },
        })
      ).status,
    ).toBe(200);
  });

  it('only an administrator sets another user’s password', async () => {
    const a = await server.as(Role.Researcher);
    const b = await server.as(Role.Researcher);
    const admin = await server.as(Role.Administrator);
    expect(
      (
        await server.call('PUT', '/user/password-reset', {
          session: a,
          body: { userId: b.user.id, password: 'hacked123' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await server.call('PUT', '/user/password-reset', {
          session: admin,
          body: { userId: b.user.id, password: 'fromadmin1' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await server.call('POST', '/authentication/login', {
          body: { email: b.user.email, password: 'fromadmin1' },
        })
      ).status,
    ).toBe(200);
    // The old sessions of b ended.
    expect((await server.call('GET', `/user?uid=${b.user.id}`, { session: b })).status).toBe(401);
  });
});

describe('sessions: renewal, reuse, expiry, logout', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  async function expireAccess(accessToken: string) {
    await server.app.db
      .updateTable('auth_tokens')
      .set({ access_expires_at: Date.now() - 1 })
      .where('access_hash', '=', tokenHash(accessToken))
      .execute();
  }

  it('renews an expired access token in the same response and the new pair works', async () => {
    const s = await server.as(Role.Researcher);
    await expireAccess(s.accessToken);
    const res = await server.call('GET', `/user?uid=${s.user.id}`, { session: s });
    expect(res.status).toBe(200);
    const access = res.headers.get('x-auth-token')!;
    const refresh = res.headers.get('x-refresh-token')!;
    expect(access).toBeTruthy();
    expect(access).not.toBe(s.accessToken);
    expect(refresh).not.toBe(s.refreshToken);
    const next = await server.call('GET', `/user?uid=${s.user.id}`, {
      session: { accessToken: access, refreshToken: refresh },
    });
    expect(next.status).toBe(200);
    expect(next.headers.get('x-auth-token')).toBeNull();
  });

  it('an expired access token without a refresh token is 401', async () => {
    const s = await server.as(Role.Researcher);
    await expireAccess(s.accessToken);
    expect(
      (await server.call('GET', `/user?uid=${s.user.id}`, { session: { accessToken: s.accessToken } }))
        .status,
    ).toBe(401);
  });

  it('replaying a rotated refresh token revokes the whole family', async () => {
    const s = await server.as(Role.Researcher);
    await expireAccess(s.accessToken);
    const rotated = await server.call('GET', `/user?uid=${s.user.id}`, { session: s });
    const fresh = {
      accessToken: rotated.headers.get('x-auth-token')!,
      refreshToken: rotated.headers.get('x-refresh-token')!,
    };
    // The thief replays the old pair:
    const replay = await server.call('GET', `/user?uid=${s.user.id}`, { session: s });
    expect(replay.status).toBe(401);
    // …and the legitimate, newer pair dies with it.
    expect((await server.call('GET', `/user?uid=${s.user.id}`, { session: fresh })).status).toBe(401);
    const family = await server.app.db
      .selectFrom('auth_families')
      .selectAll()
      .where('user_id', '=', s.user.id)
      .executeTakeFirstOrThrow();
    expect(family.revoked_at).not.toBeNull();
  });

  it('within the grace window a concurrent replay is served without a new rotation', async () => {
    const graced = await startServer((c) => (c.auth.reuseGraceMs = 60_000));
    try {
      const s = await graced.as(Role.Researcher);
      await graced.app.db
        .updateTable('auth_tokens')
        .set({ access_expires_at: Date.now() - 1 })
        .execute();
      const [a, b] = await Promise.all([
        graced.call('GET', `/user?uid=${s.user.id}`, { session: s }),
        graced.call('GET', `/user?uid=${s.user.id}`, { session: s }),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      const renewed = [a, b].filter((r) => r.headers.get('x-auth-token'));
      expect(renewed).toHaveLength(1);
      const pair = {
        accessToken: renewed[0].headers.get('x-auth-token')!,
        refreshToken: renewed[0].headers.get('x-refresh-token')!,
      };
      expect((await graced.call('GET', `/user?uid=${s.user.id}`, { session: pair })).status).toBe(200);
    } finally {
      await graced.close();
    }
  });

  it('a sign-in stops working after its absolute lifetime, however it is used', async () => {
    const s = await server.as(Role.Researcher);
    await server.app.db
      .updateTable('auth_families')
      .set({ expires_at: Date.now() - 1 })
      .where('user_id', '=', s.user.id)
      .execute();
    expect((await server.call('GET', `/user?uid=${s.user.id}`, { session: s })).status).toBe(401);
  });

  it('garbage tokens are 401', async () => {
    expect(
      (await server.call('GET', '/user?uid=1', { session: { accessToken: 'x', refreshToken: 'y' } })).status,
    ).toBe(401);
  });

  it('logout revokes the refresh-token family', async () => {
    const s = await server.as(Role.Researcher);
    expect((await server.call('POST', '/authentication/logout', { session: s })).status).toBe(204);
    expect((await server.call('GET', `/user?uid=${s.user.id}`, { session: s })).status).toBe(401);
    await expireAccess(s.accessToken);
    expect((await server.call('GET', `/user?uid=${s.user.id}`, { session: s })).status).toBe(401);
  });

  it('a user deactivated in the database loses their session at the next call', async () => {
    const s = await server.as(Role.Researcher);
    await server.app.db
      .updateTable('users')
      .set({ status_id: UserStatus.Deactivated })
      .where('id', '=', s.user.id)
      .execute();
    expect((await server.call('GET', `/user?uid=${s.user.id}`, { session: s })).status).toBe(401);
  });
});

describe('failed-login limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  const login = (
    email: string,
    password: string,
    path = '/authentication/login',
    extra: Record<string, string> = {},
  ) => server.call('POST', `${API}${path}`, { body: { email, password }, headers: extra });

  it('locks an account after 100 failures in an hour, even for the right password, and says when to retry', async () => {
    const u = await server.createUser({ role: Role.Researcher });
    for (let i = 0; i < 100; i++) expect((await login(u.email, `wrong-${i}`)).status).toBe(401);
    const locked = await login(u.email, TEST_PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(/^Too many attempts\. Try again in \d+ min\.$/);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(3000);
    // Another account from the same address is not locked by it.
    const other = await server.createUser({ role: Role.Researcher });
    expect((await login(other.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('cannot be dodged by path case, a trailing slash, a query string, extra fields or the email’s case', async () => {
    const u = await server.createUser({ role: Role.Researcher });
    for (let i = 0; i < 100; i++) await login(u.email, `wrong-${i}`);
    const attempts = [
      await login(u.email, TEST_PASSWORD, '/authentication/login/'),
      await login(u.email, TEST_PASSWORD, '/authentication/login?x=1'),
      await login(u.email, TEST_PASSWORD, '/Authentication/Login'),
      await login(u.email.toUpperCase(), TEST_PASSWORD),
      await login(` ${u.email} `, TEST_PASSWORD),
      await server.call('POST', `${API}/authentication/login`, {
        body: { email: u.email, password: TEST_PASSWORD, remember: true },
      }),
      await server.call('POST', `${API.toUpperCase()}/AUTHENTICATION/LOGIN`, {
        body: { email: u.email, password: TEST_PASSWORD },
      }),
    ];
    for (const res of attempts) {
      expect([400, 404, 429]).toContain(res.status);
      expect(res.headers.get('x-auth-token')).toBeNull();
    }
  });

  it('counts failures per client address across accounts', async () => {
    const limited = await startServer((c) => (c.auth.loginPerIpPerHour = 5));
    try {
      const u = await limited.createUser({ role: Role.Researcher });
      for (let i = 0; i < 5; i++)
        await limited.call('POST', '/authentication/login', {
          body: { email: `nobody${i}@example.com`, password: 'x' },
        });
      const res = await limited.call('POST', '/authentication/login', {
        body: { email: u.email, password: TEST_PASSWORD },
      });
      expect(res.status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('keeps the counters in the database, so a restart does not reset them', async () => {
    const u = await server.createUser({ role: Role.Researcher });
    for (let i = 0; i < 3; i++) await login(u.email, `wrong-${i}`);
    const row = await server.app.db
      .selectFrom('rate_limits')
      .selectAll()
      .where('key', '=', `login:account:${u.email}`)
      .executeTakeFirstOrThrow();
    expect(row.count).toBe(3);
  });
});
