import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { completeContent, getProject, insertProject, saveProject } from './content-helpers';
import { Role } from '../../src/domain/roles';
import { isDataError } from '../../server/app';

// Issue #17, item 1 and 3: out-of-range numbers, NUL and other control characters, arrays where
// objects are due and malformed multipart bodies are the caller's mistakes: a 400 naming the
// field, nothing written, on SQLite and PostgreSQL alike (PostgreSQL used to answer 500).

let server: TestServer;
let admin: Session;
let researcher: Session;

beforeAll(async () => {
  server = await startServer();
  admin = await server.as(Role.Administrator);
  researcher = await server.as(Role.Researcher);
});
afterAll(async () => server?.close());

const count = async (table: 'users' | 'organizations' | 'projects') =>
  Number(
    (
      await server.app.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('unauthenticated POST /researcher', () => {
  it.each([
    [
      'NUL in the name',
      { email: 'nul@example.com', fullname: 'Ann\u0000 Lee' },
      'fullname',
      'Control characters',
    ],
    [
      'a bell in the email',
      { email: 'b\u0007ell@example.com', fullname: 'Ann Lee' },
      'email',
      'Control characters',
    ],
    ['2^31 as the name', { email: 'big@example.com', fullname: 2 ** 31 }, 'fullname', ''],
    ['1e308 as the email', { email: 1e308, fullname: 'Ann Lee' }, 'email', ''],
    ['an array as the body', [{ email: 'arr@example.com', fullname: 'Ann Lee' }], 'body', ''],
  ])('refuses %s with a 400 naming the field, writing nothing', async (_name, body, field, words) => {
    const users = await count('users');
    const orgs = await count('organizations');
    const res = await server.call('POST', '/researcher', { body });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
    expect(res.body.message).toMatch(new RegExp(`^${field}: .+`));
    if (words) expect(res.body.message).toContain(words);
    expect(await count('users')).toBe(users);
    expect(await count('organizations')).toBe(orgs);
  });

  it('refuses a number too big for JSON (1e400 is Infinity) and NUL in raw JSON', async () => {
    const inf = await server.call('POST', '/researcher', {
      rawBody: '{"email":"x@example.com","fullname":1e400}',
      headers: { 'content-type': 'application/json' },
    });
    expect(inf.status).toBe(400);
    expect(inf.body.field).toBe('fullname');
    const nul = await server.call('POST', '/researcher', {
      rawBody: '{"email":"x@example.com","fullname":"A\\u0000B C"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(nul.status).toBe(400);
    expect(nul.body.message).toBe('fullname: Control characters are not allowed');
  });
});

describe('ids bounded to their 32-bit columns', () => {
  it.each(['2147483648', '1e308', '9007199254740993', '-1', '1.5'])(
    'GET /project?pid=%s answers 400 naming pid',
    async (pid) => {
      const res = await getProject(server, researcher, pid as unknown as number);
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('pid');
    },
  );

  it('says the maximum for an id past 2^31 − 1 in a body', async () => {
    const res = await server.call('PUT', '/user', {
      session: admin,
      body: { id: 2 ** 31, fullname: 'Ann Lee' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'id', message: 'id: At most 2147483647' });
    const pw = await server.call('PUT', '/user/password-reset', {
      session: admin,
      body: { userId: 2 ** 31, password: 'password12' },
    });
    expect(pw.body).toMatchObject({ field: 'userId', message: 'userId: At most 2147483647' });
    const uid = await server.call('GET', `/user?uid=${2 ** 31}`, { session: admin });
    expect(uid.body).toMatchObject({ field: 'uid', message: 'uid: At most 2147483647' });
    const huge = await server.call('POST', '/project/clone', { session: admin, body: { id: 1e308 } });
    expect(huge.status).toBe(400);
    expect(huge.body.field).toBe('id');
  });

  it('refuses NUL in a query string with a 400 naming it', async () => {
    const res = await server.call('GET', '/users?search=a%00b', { session: admin });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('search: Control characters are not allowed');
  });
});

describe('objects must be objects', () => {
  it('refuses POST /project with content: [] and keeps the questionnaire', async () => {
    const pid = await insertProject(server, researcher.user.organization!.id);
    expect((await saveProject(server, researcher, pid, completeContent(), 0)).status).toBe(200);
    const before = (await getProject(server, researcher, pid)).body;
    const res = await saveProject(server, researcher, pid, [], 1);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('content');
    const nested = await saveProject(server, researcher, pid, { questionnaires: [[]], portraits: [] }, 1);
    expect(nested.status).toBe(400);
    expect(nested.body.field).toBe('content.questionnaires.0');
    const after = (await getProject(server, researcher, pid)).body;
    expect(after).toEqual(before);
  });

  it('refuses out-of-range numbers and control characters inside the content', async () => {
    const pid = await insertProject(server, researcher.user.organization!.id);
    const content = completeContent();
    content.questionnaires[0].blocks[0].questions[0].stars = 2 ** 31;
    const big = await saveProject(server, researcher, pid, content, 0);
    expect(big.status).toBe(400);
    expect(big.body.field).toBe('content.questionnaires.0.blocks.0.questions.0.stars');
    const text = completeContent();
    text.questionnaires[0].blocks[0].questions[0].text = 'Why\u001b[31m?';
    const ctl = await saveProject(server, researcher, pid, text, 0);
    expect(ctl.status).toBe(400);
    expect(ctl.body.message).toContain('Control characters are not allowed');
  });
});

describe('POST /picture with a malformed multipart body', () => {
  it.each([
    ['no boundary', 'multipart/form-data', 'garbage'],
    [
      'a body cut short',
      'multipart/form-data; boundary=XYZ',
      '--XYZ\r\nContent-Disposition: form-data; name="images"; filename="a.png"\r\n\r\n\x89PNG',
    ],
    [
      'a malformed part header',
      'multipart/form-data; boundary=XYZ',
      '--XYZ\r\nnot a header\r\n\r\nx\r\n--XYZ--\r\n',
    ],
  ])('answers 400 with a message for %s', async (_name, type, raw) => {
    const res = await server.call('POST', '/picture', {
      session: researcher,
      rawBody: raw,
      headers: { 'content-type': type },
    });
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    expect(res.body.message.length).toBeGreaterThan(0);
  });
});

describe('database data errors', () => {
  it('recognises PostgreSQL class 22 and SQLite type errors, and nothing else', () => {
    expect(isDataError({ code: '22003' })).toBe(true);
    expect(isDataError({ code: '22021' })).toBe(true);
    expect(isDataError({ code: '22P02' })).toBe(true);
    expect(isDataError({ code: 'SQLITE_MISMATCH' })).toBe(true);
    expect(
      isDataError(new TypeError('SQLite3 can only bind numbers, strings, bigints, buffers, and null')),
    ).toBe(true);
    expect(isDataError({ code: '23505' })).toBe(false);
    expect(isDataError(new Error('boom'))).toBe(false);
  });
});
