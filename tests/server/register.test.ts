import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers';
import { deadSmtpUrl, startMailSink, type MailSink } from './mail-sink';
import { Role, UserStatus } from '../../src/domain/roles';
import { OrganizationType } from '../../src/domain/organizations';
import { REGISTRATIONS_PER_IP_PER_HOUR } from '../../server/routes/invitations';

// Self-registration of demo researchers: POST /researcher.

describe('registration', () => {
  let server: TestServer;
  let sink: MailSink;

  beforeAll(async () => {
    sink = await startMailSink();
    server = await startServer((c) => {
      c.smtpUrl = sink.url;
      c.publicUrl = 'https://surveys.example.org';
    });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  // Each test starts with a fresh per-address budget.
  const clearLimits = () =>
    server.app.db.deleteFrom('rate_limits').where('key', 'like', 'register:%').execute();
  const register = (body: unknown, locale: 'ru' | 'en' = 'en') =>
    server.call('POST', '/researcher', { body, locale });
  const counts = async () => {
    const n = async (t: 'users' | 'organizations') =>
      Number(
        (
          await server.app.db
            .selectFrom(t)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { users: await n('users'), organizations: await n('organizations') };
  };

  it('creates a demo researcher with an organization of their own and mails the instructions', async () => {
    await clearLimits();
    const res = await register({ email: 'Demo.User@Example.com', fullname: 'Мария Демо' }, 'ru');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ ok: true, email: 'demo.user@example.com' });
    const row = await server.app.db
      .selectFrom('users as u')
      .innerJoin('organizations as o', 'o.id', 'u.organization_id')
      .select(['u.role_id', 'u.status_id', 'u.locale', 'u.password_hash', 'o.type', 'o.name'])
      .where('u.email', '=', 'demo.user@example.com')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      role_id: Role.DemoResearcher,
      status_id: UserStatus.InvitationSent,
      locale: 'ru',
      password_hash: null,
      type: OrganizationType.Individual,
      name: 'Мария Демо (demo.user@example.com)',
    });
    const mail = await sink.waitFor('demo.user@example.com');
    expect(mail.subject).toBe('Регистрация в бэк-офисе опросов');
    expect(mail.text).toContain('Здравствуйте, Мария Демо!');
    expect(mail.link).toMatch(/^https:\/\/surveys\.example\.org\/invitations\?token=/);
    // The mailed link finishes the account like an invitation.
    expect((await server.call('POST', '/invitations/confirm', { body: { token: mail.token } })).status).toBe(
      200,
    );
    expect(
      (
        await server.call('POST', '/user/password-reset', {
          body: { token: mail.token, password: 'demo-pass-1' },
        })
      ).status,
    ).toBe(200);
    const s = await server.login('demo.user@example.com', 'demo-pass-1');
    expect(s.user.role.id).toBe(Role.DemoResearcher);
  });

  it('refuses a taken email with the spec message', async () => {
    await clearLimits();
    await server.createUser({ email: 'exists@example.com', role: Role.Researcher });
    const res = await register({ email: 'EXISTS@example.com', fullname: 'Someone Else' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      code: 'email-exists',
      message: 'An account with this email address already exists',
    });
  });

  it('answers bad bodies with the spec messages and writes nothing', async () => {
    await clearLimits();
    const before = await counts();
    for (const [body, message] of [
      [{ email: 'x@example.com' }, 'fullname: This field is required'],
      [{ email: 'bad', fullname: 'Some Body' }, 'email: Please enter a valid email'],
      [{ email: 'x@example.com', fullname: 'ab' }, 'fullname: Minimum 3 symbols.'],
      [{ email: 'x@example.com', fullname: 'Some Body', roles: [1] }, 'roles: Unknown field'],
    ] as const) {
      const res = await register(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(await counts()).toEqual(before);
  });

  it('creates one account from a double submit', async () => {
    await clearLimits();
    const body = { email: 'twice@example.com', fullname: 'Twice Clicked' };
    const results = await Promise.all([register(body), register(body)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const rows = await server.app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'twice@example.com')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('is rate limited per client address', async () => {
    await clearLimits();
    const statuses: number[] = [];
    for (let i = 0; i <= REGISTRATIONS_PER_IP_PER_HOUR; i++) {
      statuses.push((await register({ email: `flood${i}@example.com`, fullname: 'Flood Person' })).status);
    }
    expect(statuses.slice(0, REGISTRATIONS_PER_IP_PER_HOUR).every((s) => s === 201)).toBe(true);
    const last = await register({ email: 'one-more@example.com', fullname: 'One More' });
    expect(last.status).toBe(429);
    expect(last.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(last.body.message).toMatch(/^Too many attempts\. Try again in \d+ min\.$/);
    expect(
      await server.app.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'one-more@example.com')
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  it('undoes the account when the mail cannot be sent, so the visitor can try again', async () => {
    await clearLimits();
    const good = server.config.smtpUrl;
    server.config.smtpUrl = await deadSmtpUrl();
    const before = await counts();
    try {
      const res = await register({ email: 'unlucky@example.com', fullname: 'Unlucky Person' });
      expect(res.status).toBe(502);
      expect(res.body.message).toBe(
        'The email could not be sent: the mail server is unavailable. Try again later.',
      );
      expect(await counts()).toEqual(before);
    } finally {
      server.config.smtpUrl = good;
    }
    expect((await register({ email: 'unlucky@example.com', fullname: 'Unlucky Person' })).status).toBe(201);
  });

  it('logs the registration under the new user', async () => {
    await clearLimits();
    await register({ email: 'logged-reg@example.com', fullname: 'Logged Person' });
    const admin = await server.as(Role.Administrator, { organizationId: null });
    const log = await server.call('GET', '/history?chapter=registration&email=logged-reg', {
      session: admin,
    });
    expect(log.body).toHaveLength(1);
    expect(log.body[0]).toMatchObject({
      email: 'logged-reg@example.com',
      organization: 'Logged Person (logged-reg@example.com)',
      service: 'POST /researcher',
      message: 'Demo researcher registered',
    });
  });
});
