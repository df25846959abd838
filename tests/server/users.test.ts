import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TEST_PASSWORD, type Session, type TestServer } from './helpers';
import { deadSmtpUrl, startMailSink, type MailSink } from './mail-sink';
import { Role, UserStatus, type RoleId, type UserStatusId } from '../../src/domain/roles';
import { canChangeStatus } from '../../src/domain/userStatus';

// User administration: GET /users, POST /user, PUT /user, DELETE /user, the administrator's
// PUT /user/password-reset, and who may call them.

const NON_ADMIN_ROLES: RoleId[] = [
  Role.Moderator,
  Role.ModeratorVK,
  Role.Researcher,
  Role.Issuer,
  Role.DemoResearcher,
];

describe('user administration', () => {
  let server: TestServer;
  let sink: MailSink;
  let admin: Session;
  let orgId: number;

  beforeAll(async () => {
    sink = await startMailSink();
    server = await startServer((c) => {
      c.smtpUrl = sink.url;
      c.publicUrl = 'https://surveys.example.org';
    });
    admin = await server.as(Role.Administrator, { organizationId: null });
    orgId = await server.createOrganization('Acme Research');
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  const invite = (body: Record<string, unknown>, session: Session = admin, locale?: 'ru' | 'en') =>
    server.call('POST', '/user', { body, session, locale });
  const userCount = async () =>
    Number(
      (
        await server.app.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses every administration call to every other role and to strangers', async () => {
    const victim = await server.createUser({ role: Role.Researcher, organizationId: orgId });
    for (const role of NON_ADMIN_ROLES) {
      const s = await server.as(role);
      const calls: [string, string, unknown?][] = [
        ['GET', '/users'],
        ['GET', '/users?roles=4'],
        [
          'POST',
          '/user',
          {
            email: `x${role}@example.com`,
            fullname: 'Someone',
            roles: [Role.Researcher],
            organizationId: orgId,
          },
        ],
        ['PUT', '/user', { id: victim.id, fullname: 'Changed by a stranger' }],
        ['DELETE', '/user', { id: victim.id }],
        ['POST', '/invitations/resend', { id: victim.id }],
        ['GET', '/history'],
        ['GET', '/history/chapters'],
        ['POST', '/organizations', { name: `Org of ${role}`, type: 1 }],
      ];
      for (const [method, path, body] of calls) {
        const res = await server.call(method, path, { body, session: s });
        expect({ role, method, path, status: res.status }).toEqual({ role, method, path, status: 403 });
      }
      // PUT /user/password-reset for someone else: only the administrator.
      const pw = await server.call('PUT', '/user/password-reset', {
        body: { userId: victim.id, password: 'newpassword1' },
        session: s,
      });
      expect(pw.status).toBe(403);
    }
    for (const [method, path] of [
      ['GET', '/users'],
      ['POST', '/user'],
      ['PUT', '/user'],
      ['DELETE', '/user'],
      ['POST', '/invitations/resend'],
      ['GET', '/history'],
    ]) {
      expect((await server.call(method, path, { body: method === 'GET' ? undefined : {} })).status).toBe(401);
    }
    const after = await server.call('GET', `/user?uid=${victim.id}`, { session: admin });
    expect(after.body.fullname).toBe('Test User');
  });

  it('lets a researcher read themselves but not another user (403)', async () => {
    const me = await server.as(Role.Researcher);
    const other = await server.createUser({ role: Role.Researcher, organizationId: orgId });
    expect((await server.call('GET', `/user?uid=${me.user.id}`, { session: me })).status).toBe(200);
    expect((await server.call('GET', `/user?uid=${other.id}`, { session: me })).status).toBe(403);
  });

  it('invites a user: Created, mailed, then Invitation sent, with a PUBLIC_URL/invitations link', async () => {
    const res = await invite({
      email: 'New.Person@Example.com',
      fullname: 'Новый Человек',
      roles: [Role.Researcher],
      organizationId: orgId,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      email: 'new.person@example.com',
      fullname: 'Новый Человек',
      role: { id: Role.Researcher, name: 'Researcher' },
      statusId: UserStatus.InvitationSent,
      organization: { id: orgId, name: 'Acme Research' },
      mailSent: true,
    });
    const mail = await sink.waitFor('new.person@example.com');
    expect(mail.link).toMatch(/^https:\/\/surveys\.example\.org\/invitations\?token=[A-Za-z0-9_-]{43}$/);
    // The administrator wrote in English and the recipient's language is unknown: English mail.
    expect(mail.subject).toBe('Invitation to the survey back-office');
    expect(mail.text).toContain('Hello, Новый Человек!');
    expect(mail.text).toContain('role: Researcher');
    expect(mail.html).toContain(`href="${mail.link}"`);
    // The token is stored only as a hash.
    const stored = await server.app.db
      .selectFrom('user_tokens')
      .select('token_hash')
      .where('user_id', '=', res.body.id)
      .execute();
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).not.toContain(mail.token!);
  });

  it('writes the invitation in the recipient language when the form names it', async () => {
    const res = await invite({
      email: 'ru.person@example.com',
      fullname: 'Пётр Иванов',
      roles: [Role.Issuer],
      organizationId: orgId,
      locale: 'ru',
    });
    expect(res.status).toBe(201);
    const mail = await sink.waitFor('ru.person@example.com');
    expect(mail.subject).toBe('Приглашение в бэк-офис опросов');
    expect(mail.text).toContain('роль: Издатель');
  });

  it('creates an Activated user without mail when the administrator gives a password', async () => {
    const before = sink.messages.length;
    const res = await invite({
      email: 'direct@example.com',
      fullname: 'Direct User',
      roles: [Role.Moderator],
      password: 'direct-pass1',
    });
    expect(res.status).toBe(201);
    expect(res.body.statusId).toBe(UserStatus.Activated);
    expect(res.body.mailSent).toBe(false);
    expect(sink.messages.length).toBe(before);
    await server.login('direct@example.com', 'direct-pass1');
  });

  it('answers bad bodies with the spec messages and writes nothing', async () => {
    const before = await userCount();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ fullname: 'Some One', roles: [4], organizationId: orgId }, 'email', 'email: This field is required'],
      [
        { email: '', fullname: 'Some One', roles: [4], organizationId: orgId },
        'email',
        'email: This field is required',
      ],
      [
        { email: 'not-an-email', fullname: 'Some One', roles: [4], organizationId: orgId },
        'email',
        'email: Please enter a valid email',
      ],
      [
        { email: `${'a'.repeat(65)}@example.com`, fullname: 'Some One', roles: [4], organizationId: orgId },
        'email',
        'email: The part before @ must be at most 64 characters',
      ],
      [
        { email: 'ok@example.com', fullname: 'Al', roles: [4], organizationId: orgId },
        'fullname',
        'fullname: Minimum 3 symbols.',
      ],
      [
        { email: 'ok@example.com', fullname: '   ', roles: [4], organizationId: orgId },
        'fullname',
        'fullname: This field is required',
      ],
      [
        { email: 'ok@example.com', fullname: 'Some One', roles: [9], organizationId: orgId },
        'roles.0',
        'roles[0]: Invalid value',
      ],
      [
        { email: 'ok@example.com', fullname: 'Some One', roles: [4, 5], organizationId: orgId },
        'roles',
        'roles: Invalid value',
      ],
      [
        { email: 'ok@example.com', fullname: 'Some One', roles: [4] },
        'organizationId',
        'organizationId: This field is required',
      ],
      [
        { email: 'ok@example.com', fullname: 'Some One', roles: [4], organizationId: 999999 },
        'organizationId',
        'Organization not found',
      ],
      [
        { email: 'ok@example.com', fullname: 'Some One', roles: [2], categoryId: 999999 },
        'categoryId',
        'Category not found',
      ],
      [
        { email: 'ok@example.com', fullname: 'Some One', roles: [2], password: 'nodigits' },
        'password',
        'password: Must contain a number',
      ],
      [
        { email: 'ok@example.com', fullname: 'Some One', roles: [2], password: 'NODIGIT1' },
        'password',
        'password: Must contain a lowercase letter',
      ],
      [
        { email: 'ok@example.com', fullname: 'Some One', roles: [2], isAdmin: true },
        'isAdmin',
        'isAdmin: Unknown field',
      ],
    ];
    for (const [body, field, message] of cases) {
      const res = await invite(body);
      expect({ body, status: res.status, field: res.body.field, message: res.body.message }).toEqual({
        body,
        status: 400,
        field,
        message,
      });
    }
    const notJson = await server.call('POST', '/user', {
      rawBody: '{"email":',
      headers: { 'content-type': 'application/json' },
      session: admin,
    });
    expect(notJson.status).toBe(400);
    expect(await userCount()).toBe(before);
  });

  it('refuses a taken email with the spec message, in Russian too', async () => {
    const body = { email: 'taken@example.com', fullname: 'First One', roles: [Role.Moderator] };
    expect((await invite(body)).status).toBe(201);
    const en = await invite({ ...body, email: 'TAKEN@example.com' });
    expect(en.status).toBe(409);
    expect(en.body).toMatchObject({
      code: 'email-exists',
      message: 'An account with this email address already exists',
    });
    const ru = await invite(body, admin, 'ru');
    expect(ru.body.message).toBe('Аккаунт с таким адресом электронной почты уже существует');
  });

  it('creates one user from a double submit', async () => {
    const body = {
      email: 'double@example.com',
      fullname: 'Double Click',
      roles: [Role.Researcher],
      organizationId: orgId,
    };
    const results = await Promise.all([invite(body), invite(body), invite(body)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const rows = await server.app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'double@example.com')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('tells the administrator when the mail failed, keeps the user, and resend works later', async () => {
    const good = server.config.smtpUrl;
    server.config.smtpUrl = await deadSmtpUrl();
    try {
      const res = await invite({
        email: 'nomail@example.com',
        fullname: 'No Mail',
        roles: [Role.Researcher],
        organizationId: orgId,
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ statusId: UserStatus.Created, mailSent: false });
      const again = await server.call('POST', '/invitations/resend', {
        body: { id: res.body.id },
        session: admin,
      });
      expect(again.status).toBe(502);
      expect(again.body.message).toBe(
        'The email could not be sent: the mail server is unavailable. Try again later.',
      );
      server.config.smtpUrl = good;
      const later = await server.call('POST', '/invitations/resend', {
        body: { id: res.body.id },
        session: admin,
      });
      expect(later.status).toBe(200);
      expect(later.body.statusId).toBe(UserStatus.InvitationSent);
      expect((await sink.waitFor('nomail@example.com')).link).toBeTruthy();
    } finally {
      server.config.smtpUrl = good;
    }
  });

  describe('listing', () => {
    let listOrg: number;
    beforeAll(async () => {
      listOrg = await server.createOrganization('Listing Org');
      const names = ['Анна Смирнова', 'Борис Петров', 'Вера Кузнецова', 'Zoe Adams', 'anna 100%_sure'];
      for (const [i, fullname] of names.entries()) {
        await invite({
          email: `list${i}@list.example`,
          fullname,
          roles: [Role.Issuer],
          organizationId: listOrg,
        });
      }
      await invite({ email: 'mod1@list.example', fullname: 'Mod One', roles: [Role.Moderator] });
      await invite({ email: 'modvk@list.example', fullname: 'Mod VK', roles: [Role.ModeratorVK] });
    });

    it('pages with X-Total-Count, newest first by default', async () => {
      const res = await server.call('GET', '/users?roles=5&search=list.example&pageSize=2', {
        session: admin,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total-count')).toBe('5');
      expect(res.body.map((u: { email: string }) => u.email)).toEqual([
        'list4@list.example',
        'list3@list.example',
      ]);
      const page3 = await server.call('GET', '/users?roles=5&search=list.example&pageSize=2&page=3', {
        session: admin,
      });
      expect(page3.body.map((u: { email: string }) => u.email)).toEqual(['list0@list.example']);
    });

    it('lists Moderator and Moderator VK together with repeated roles', async () => {
      const res = await server.call('GET', '/users?roles=2&roles=3&search=list.example', { session: admin });
      expect(res.body.map((u: { email: string }) => u.email).sort()).toEqual([
        'mod1@list.example',
        'modvk@list.example',
      ]);
    });

    it('searches email and name case-insensitively, Cyrillic too, with % and _ taken literally', async () => {
      const find = async (search: string) =>
        (
          await server.call('GET', `/users?roles=5&search=${encodeURIComponent(search)}`, { session: admin })
        ).body.map((u: { email: string }) => u.email);
      expect(await find('АННА')).toEqual(['list0@list.example']);
      expect(await find('петров')).toEqual(['list1@list.example']);
      expect(await find('LIST3@')).toEqual(['list3@list.example']);
      expect(await find('100%_')).toEqual(['list4@list.example']);
      expect(await find('%')).toEqual(['list4@list.example']);
    });

    it('sorts by each column both ways', async () => {
      const emails = async (sort: string, order: string) =>
        (
          await server.call('GET', `/users?roles=5&search=list.example&sort=${sort}&order=${order}`, {
            session: admin,
          })
        ).body.map((u: { fullname: string }) => u.fullname);
      const byName = await emails('fullname', 'asc');
      expect(byName).toEqual([
        'anna 100%_sure',
        'Zoe Adams',
        'Анна Смирнова',
        'Борис Петров',
        'Вера Кузнецова',
      ]);
      expect(await emails('fullname', 'desc')).toEqual([...byName].reverse());
      for (const sort of ['email', 'organization', 'category', 'status', 'createdAt']) {
        expect(
          (await server.call('GET', `/users?roles=5&sort=${sort}&order=desc`, { session: admin })).status,
        ).toBe(200);
      }
    });

    it('refuses bad list queries', async () => {
      for (const q of [
        'pageSize=101',
        'page=0',
        'sort=password_hash',
        'order=sideways',
        'roles=7',
        'pageSize=abc',
      ]) {
        const res = await server.call('GET', `/users?${q}`, { session: admin });
        expect({ q, status: res.status }).toEqual({ q, status: 400 });
      }
    });
  });

  describe('editing and status', () => {
    it('edits name, email, organization and category, and refuses a taken email', async () => {
      const u = await server.createUser({ role: Role.Researcher, organizationId: orgId });
      const org2 = await server.createOrganization('Second Org');
      const cats = (await server.call('GET', '/categories', { session: admin })).body;
      const res = await server.call('PUT', '/user', {
        body: {
          id: u.id,
          fullname: 'Renamed Person',
          email: 'renamed@example.com',
          organizationId: org2,
          categoryId: cats[0].id,
        },
        session: admin,
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        fullname: 'Renamed Person',
        email: 'renamed@example.com',
        organization: { id: org2 },
        category: { id: cats[0].id },
      });
      const found = await server.call('GET', '/users?search=renamed%20person', { session: admin });
      expect(found.body.map((x: { id: number }) => x.id)).toEqual([u.id]);
      const taken = await server.call('PUT', '/user', {
        body: { id: u.id, email: 'taken@example.com' },
        session: admin,
      });
      expect(taken.status).toBe(409);
      expect(taken.body.message).toBe('An account with this email address already exists');
      const noOrg = await server.call('PUT', '/user', {
        body: { id: u.id, organizationId: null },
        session: admin,
      });
      expect(noOrg.status).toBe(400);
      expect(noOrg.body.field).toBe('organizationId');
      expect(
        (await server.call('PUT', '/user', { body: { id: 999999, fullname: 'Nobody Here' }, session: admin }))
          .status,
      ).toBe(404);
    });

    it('answers bad edit bodies with clear messages and changes nothing', async () => {
      const u = await server.createUser({
        role: Role.Researcher,
        organizationId: orgId,
        fullname: 'Unchanged Name',
      });
      for (const [body, message] of [
        [{ fullname: 'No Id Given' }, 'id: This field is required'],
        [{ id: 'x', fullname: 'Bad Id' }, 'id: Wrong type of value'],
        [{ id: u.id, statusId: 9 }, 'statusId: Invalid value'],
        [{ id: u.id, fullname: 'ab' }, 'fullname: Minimum 3 symbols.'],
        [{ id: u.id, email: 'nope' }, 'email: Please enter a valid email'],
        [{ id: u.id, roles: [] }, 'roles: Invalid value'],
        [{ id: u.id, locale: 'de' }, 'locale: Invalid value'],
        [{ id: u.id, password: 'secret-pass1' }, 'password: Unknown field'],
        [{ id: u.id, fullname: 'Good Name', categoryId: 424242 }, 'Category not found'],
      ] as const) {
        const res = await server.call('PUT', '/user', { body, session: admin });
        expect({ body, status: res.status, message: res.body.message }).toEqual({
          body,
          status: 400,
          message,
        });
      }
      const row = await server.app.db
        .selectFrom('users')
        .select(['fullname', 'email', 'status_id'])
        .where('id', '=', u.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ fullname: 'Unchanged Name', email: u.email, status_id: UserStatus.Activated });
    });

    it('moves a demo researcher to Researcher', async () => {
      const u = await server.createUser({ role: Role.DemoResearcher, organizationId: orgId });
      const res = await server.call('PUT', '/user', {
        body: { id: u.id, roles: [Role.Researcher] },
        session: admin,
      });
      expect(res.status).toBe(200);
      expect(res.body.role).toMatchObject({ id: Role.Researcher, name: 'Researcher' });
    });

    it('allows exactly the four status changes and refuses the others with a clear message', async () => {
      const statuses = Object.values(UserStatus) as UserStatusId[];
      for (const from of statuses) {
        for (const to of statuses) {
          if (from === to) continue;
          const u = await server.createUser({ role: Role.Moderator, status: from });
          const res = await server.call('PUT', '/user', { body: { id: u.id, statusId: to }, session: admin });
          const expected = canChangeStatus(from, to) ? 200 : 409;
          expect({ from, to, status: res.status }).toEqual({ from, to, status: expected });
          const row = await server.app.db
            .selectFrom('users')
            .select('status_id')
            .where('id', '=', u.id)
            .executeTakeFirstOrThrow();
          expect(row.status_id).toBe(expected === 200 ? to : from);
        }
      }
      expect(canChangeStatus(UserStatus.InvitationSent, UserStatus.Activated)).toBe(true);
      const u = await server.createUser({ role: Role.Moderator, status: UserStatus.Activated });
      const res = await server.call('PUT', '/user', {
        body: { id: u.id, statusId: UserStatus.Created },
        session: admin,
      });
      expect(res.body.message).toBe('The status cannot change from “Activated” to “Created”');
      const ru = await server.call('PUT', '/user', {
        body: { id: u.id, statusId: UserStatus.InvitationAccepted },
        session: admin,
        locale: 'ru',
      });
      expect(ru.body.message).toBe('Статус нельзя сменить с «Активирован» на «Приглашение принято»');
    });

    it('ends a deactivated user’s sessions at once and refuses their sign-in; reactivation lets them back', async () => {
      const s = await server.as(Role.Researcher);
      expect((await server.call('GET', `/user?uid=${s.user.id}`, { session: s })).status).toBe(200);
      const res = await server.call('PUT', '/user', {
        body: { id: s.user.id, statusId: UserStatus.Deactivated },
        session: admin,
      });
      expect(res.status).toBe(200);
      expect(res.body.statusId).toBe(UserStatus.Deactivated);
      // Both the access token and the refresh token are dead.
      expect((await server.call('GET', `/user?uid=${s.user.id}`, { session: s })).status).toBe(401);
      expect(
        (await server.call('GET', `/user?uid=${s.user.id}`, { session: { refreshToken: s.refreshToken } }))
          .status,
      ).toBe(401);
      const login = await server.call('POST', '/authentication/login', {
        body: { email: s.user.email, password: TEST_PASSWORD },
      });
      expect(login.status).toBe(403);
      await server.call('PUT', '/user', {
        body: { id: s.user.id, statusId: UserStatus.Activated },
        session: admin,
      });
      await server.login(s.user.email);
    });

    it('does not let an administrator demote, deactivate or delete themselves', async () => {
      const me = await server.as(Role.Administrator, { organizationId: null });
      for (const body of [
        { id: me.user.id, statusId: UserStatus.Deactivated },
        { id: me.user.id, roles: [Role.Researcher] },
      ]) {
        const res = await server.call('PUT', '/user', { body, session: me });
        expect(res.status).toBe(409);
        expect(res.body.message).toBe('You cannot change your own account this way');
      }
      expect((await server.call('DELETE', '/user', { body: { id: me.user.id }, session: me })).status).toBe(
        409,
      );
      expect(
        (
          await server.call('PUT', '/user', {
            body: { id: me.user.id, fullname: 'Admin Renamed' },
            session: me,
          })
        ).status,
      ).toBe(200);
    });

    it('lets a user change only their own name and language', async () => {
      const s = await server.as(Role.Researcher);
      const ok = await server.call('PUT', '/user', {
        body: { id: s.user.id, fullname: 'My New Name', locale: 'en' },
        session: s,
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ fullname: 'My New Name', locale: 'en' });
      for (const body of [
        { id: s.user.id, roles: [Role.Administrator] },
        { id: s.user.id, statusId: UserStatus.Activated },
        { id: s.user.id, email: 'mine@example.com' },
        { id: s.user.id, organizationId: orgId },
      ]) {
        const res = await server.call('PUT', '/user', { body, session: s });
        expect({ body, status: res.status }).toEqual({ body, status: 403 });
      }
      const row = await server.app.db
        .selectFrom('users')
        .select(['role_id', 'email'])
        .where('id', '=', s.user.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ role_id: Role.Researcher, email: s.user.email });
    });
  });

  it('sets a new password as the administrator: the old one stops working and sessions end', async () => {
    const s = await server.as(Role.Issuer);
    const bad = await server.call('PUT', '/user/password-reset', {
      body: { userId: s.user.id, password: 'short1' },
      session: admin,
    });
    expect(bad.status).toBe(400);
    const res = await server.call('PUT', '/user/password-reset', {
      body: { userId: s.user.id, password: 'brand-new-pass1' },
      session: admin,
    });
    expect(res.status).toBe(200);
    expect((await server.call('GET', `/user?uid=${s.user.id}`, { session: s })).status).toBe(401);
    const old = await server.call('POST', '/authentication/login', {
      body: { email: s.user.email, password: TEST_PASSWORD },
    });
    expect(old.status).toBe(401);
    await server.login(s.user.email, 'brand-new-pass1');
  });

  it('deletes a user: sessions end, the row is gone, a second delete is 404', async () => {
    const s = await server.as(Role.DemoResearcher);
    const bad = await server.call('DELETE', '/user', { body: { id: 'x' }, session: admin });
    expect(bad.status).toBe(400);
    const res = await server.call('DELETE', '/user', { body: { id: s.user.id }, session: admin });
    expect(res.status).toBe(200);
    expect((await server.call('GET', `/user?uid=${s.user.id}`, { session: s })).status).toBe(401);
    expect((await server.call('GET', `/user?uid=${s.user.id}`, { session: admin })).status).toBe(404);
    expect((await server.call('DELETE', '/user', { body: { id: s.user.id }, session: admin })).status).toBe(
      404,
    );
    const log = await server.call(
      'GET',
      `/history?chapter=users&email=${encodeURIComponent(admin.user.email)}`,
      { session: admin },
    );
    expect(log.body[0]).toMatchObject({ service: 'DELETE /user', message: `Deleted user ${s.user.email}` });
  });
});
