import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { startMailSink, type MailSink } from './mail-sink';
import { Role, UserStatus } from '../../src/domain/roles';
import { tokenHash } from '../../server/auth/sessions';

// Invitations by mail: POST /invitations/resend, POST /invitations/confirm, POST /user/password-reset
// with the mailed token, and the "forgot password" link (POST /user/password-forgot).

describe('invitations', () => {
  let server: TestServer;
  let sink: MailSink;
  let admin: Session;
  let orgId: number;
  let seq = 0;

  beforeAll(async () => {
    sink = await startMailSink();
    server = await startServer((c) => {
      c.smtpUrl = sink.url;
      c.publicUrl = 'https://surveys.example.org';
    });
    admin = await server.as(Role.Administrator, { organizationId: null });
    orgId = await server.createOrganization('Invite Org');
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  /** Invites a researcher and returns their id, email and the mailed token. */
  async function invited() {
    const email = `invitee${++seq}@example.com`;
    const res = await server.call('POST', '/user', {
      body: { email, fullname: 'Invited Person', roles: [Role.Researcher], organizationId: orgId },
      session: admin,
    });
    expect(res.status).toBe(201);
    const mail = await sink.waitFor(email);
    return { id: res.body.id as number, email, token: mail.token! };
  }
  const confirm = (token: unknown, locale?: 'ru' | 'en') =>
    server.call('POST', '/invitations/confirm', { body: { token }, locale });
  const setPassword = (token: string, password: string) =>
    server.call('POST', '/user/password-reset', { body: { token, password } });
  const statusOf = async (id: number) =>
    (
      await server.app.db
        .selectFrom('users')
        .select('status_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).status_id;

  it('confirms, sets a password, activates, and the user signs in', async () => {
    const u = await invited();
    const res = await confirm(u.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      email: u.email,
      fullname: 'Invited Person',
      statusId: UserStatus.InvitationAccepted,
      purpose: 'invitation',
    });
    expect(await statusOf(u.id)).toBe(UserStatus.InvitationAccepted);
    // Opening the link again (a reload) still works until the password is set.
    expect((await confirm(u.token)).status).toBe(200);
    const set = await setPassword(u.token, 'my-secret-1');
    expect(set.status).toBe(200);
    expect(await statusOf(u.id)).toBe(UserStatus.Activated);
    const s = await server.login(u.email, 'my-secret-1');
    expect(s.user.statusId).toBe(UserStatus.Activated);
  });

  it('works once: a used link answers cant-confirm', async () => {
    const u = await invited();
    expect((await setPassword(u.token, 'first-pass-1')).status).toBe(200);
    const again = await confirm(u.token);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 'cant-confirm',
      message: 'The user cannot be confirmed. Current status is CONFIRMED',
    });
    const second = await setPassword(u.token, 'second-pass-1');
    expect(second.body.code).toBe('cant-confirm');
    await server.login(u.email, 'first-pass-1');
  });

  it('lets only one of two simultaneous submits of the same link set the password', async () => {
    const u = await invited();
    const results = await Promise.all([
      setPassword(u.token, 'racer-one-1'),
      setPassword(u.token, 'racer-two-2'),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results[0].status === 200 ? 'racer-one-1' : 'racer-two-2';
    await server.login(u.email, winner);
  });

  it('answers each kind of bad link with the spec error, in both languages', async () => {
    const malformed = await confirm('not-a-token');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({
      code: 'invalid-confirmation-link',
      message: 'Invalid confirmation link',
    });
    const unknown = await confirm('A'.repeat(43));
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      code: 'invalid-code',
      message: 'Invalid code entered, please repeat',
    });
    expect((await confirm('A'.repeat(43), 'ru')).body.message).toBe('Введён неверный код, повторите');
    const missing = await server.call('POST', '/invitations/confirm', { body: {} });
    expect(missing.body).toMatchObject({ field: 'token', message: 'token: This field is required' });

    const u = await invited();
    // Eight days later: past the 7-day lifetime.
    await server.app.db
      .updateTable('user_tokens')
      .set({ expires_at: Date.now() - 1 })
      .where('token_hash', '=', tokenHash(u.token))
      .execute();
    const expired = await confirm(u.token);
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({
      code: 'expired-code',
      message: 'An expired code has been entered, please request the code again',
    });
    expect((await setPassword(u.token, 'late-pass-1')).body.code).toBe('expired-code');
    expect(await statusOf(u.id)).toBe(UserStatus.InvitationSent);
  });

  it('stores links that expire after seven days', async () => {
    const before = Date.now();
    const u = await invited();
    const row = await server.app.db
      .selectFrom('user_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash(u.token))
      .executeTakeFirstOrThrow();
    const days = (row.expires_at - row.created_at) / 86_400_000;
    expect(days).toBe(7);
    expect(row.created_at).toBeGreaterThanOrEqual(before);
  });

  it('checks the new password with the spec rules', async () => {
    const u = await invited();
    for (const [password, message] of [
      ['nodigitshere', 'password: Must contain a number'],
      ['NOLOWER123', 'password: Must contain a lowercase letter'],
      ['ab1', 'password: At least 8 characters'],
    ]) {
      const res = await setPassword(u.token, password);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
    // A refused password leaves the link usable.
    expect((await setPassword(u.token, 'good-pass-1')).status).toBe(200);
  });

  it('resend mails a new link and the old one stops working', async () => {
    const u = await invited();
    const res = await server.call('POST', '/invitations/resend', { body: { id: u.id }, session: admin });
    expect(res.status).toBe(200);
    expect(res.body.statusId).toBe(UserStatus.InvitationSent);
    const second = await sink.waitFor(u.email, 2);
    expect(second.token).not.toBe(u.token);
    expect((await confirm(u.token)).body.code).toBe('invalid-code');
    expect((await confirm(second.token)).status).toBe(200);
  });

  it('resends after confirmation too, and refuses for users who have joined or were deactivated', async () => {
    const u = await invited();
    await confirm(u.token);
    const again = await server.call('POST', '/invitations/resend', { body: { id: u.id }, session: admin });
    expect(again.status).toBe(200);
    expect(await statusOf(u.id)).toBe(UserStatus.InvitationSent);

    const joined = await server.createUser({ role: Role.Researcher, organizationId: orgId });
    const refused = await server.call('POST', '/invitations/resend', {
      body: { id: joined.id },
      session: admin,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'The user has already accepted the invitation; no invitation is needed',
    );

    const off = await server.createUser({
      role: Role.Researcher,
      organizationId: orgId,
      status: UserStatus.Deactivated,
    });
    const offRes = await server.call('POST', '/invitations/resend', { body: { id: off.id }, session: admin });
    expect(offRes.body.message).toBe('The user is deactivated: activate them first');
    expect(
      (await server.call('POST', '/invitations/resend', { body: { id: 999999 }, session: admin })).status,
    ).toBe(404);
    expect((await server.call('POST', '/invitations/resend', { body: {}, session: admin })).status).toBe(400);
  });

  it('kills a pending link when the administrator deactivates the user', async () => {
    const u = await invited();
    await server.call('PUT', '/user', {
      body: { id: u.id, statusId: UserStatus.Deactivated },
      session: admin,
    });
    expect((await confirm(u.token)).body.code).toBe('invalid-code');
    expect((await setPassword(u.token, 'sneaky-pass-1')).body.code).toBe('invalid-code');
  });

  it('keeps the link usable when the administrator activates the user before they used it', async () => {
    const u = await invited();
    await server.call('PUT', '/user', { body: { id: u.id, statusId: UserStatus.Activated }, session: admin });
    const res = await confirm(u.token);
    expect(res.status).toBe(200);
    expect(res.body.statusId).toBe(UserStatus.Activated);
    expect((await setPassword(u.token, 'early-pass-1')).status).toBe(200);
    await server.login(u.email, 'early-pass-1');
  });

  it('writes log entries for the invitation steps under the invitee', async () => {
    const u = await invited();
    await confirm(u.token);
    await setPassword(u.token, 'logged-pass-1');
    const log = await server.call('GET', `/history?email=${encodeURIComponent(u.email)}`, { session: admin });
    expect(log.body.map((e: { message: string; service: string }) => [e.service, e.message])).toEqual([
      ['POST /user/password-reset', 'Password set with the mailed link'],
      ['POST /invitations/confirm', 'Invitation confirmed'],
    ]);
  });

  describe('forgot password', () => {
    it('mails a reset link to an active user that sets a new password and ends old sessions', async () => {
      const s = await server.as(Role.Researcher);
      const res = await server.call('POST', '/user/password-forgot', {
        body: { email: s.user.email.toUpperCase() },
        locale: 'ru',
      });
      expect(res.status).toBe(200);
      const mail = await sink.waitFor(s.user.email);
      expect(mail.subject).toBe('Восстановление пароля');
      const info = await confirm(mail.token);
      expect(info.body).toMatchObject({
        purpose: 'reset',
        email: s.user.email,
        statusId: UserStatus.Activated,
      });
      expect((await setPassword(mail.token!, 'reset-pass-1')).status).toBe(200);
      expect((await server.call('GET', `/user?uid=${s.user.id}`, { session: s })).status).toBe(401);
      await server.login(s.user.email, 'reset-pass-1');
    });

    it('answers the same for unknown and inactive addresses and mails nothing', async () => {
      const off = await server.createUser({ role: Role.Researcher, status: UserStatus.Deactivated });
      const before = sink.messages.length;
      for (const email of ['nobody-here@example.com', off.email]) {
        const res = await server.call('POST', '/user/password-forgot', { body: { email } });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ ok: true });
      }
      await new Promise((r) => setTimeout(r, 200));
      expect(sink.messages.length).toBe(before);
    });

    it('limits requests per address', async () => {
      const u = await server.createUser({ role: Role.Issuer });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push(
          (await server.call('POST', '/user/password-forgot', { body: { email: u.email } })).status,
        );
      expect(statuses).toEqual([200, 200, 200, 429]);
    });
  });
});
