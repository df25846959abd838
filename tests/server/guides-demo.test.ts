import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { startMailSink, type MailSink } from './mail-sink';
import { ProjectStatus } from '../../src/domain/projects';
import { Role } from '../../src/domain/roles';

// A demo researcher's first day on the server (docs/decisions/guides.md): confirming the account
// through the mailed link gives them an example project in their language, once; sending a project
// for moderation and taking a survey link are refused with 403 and the reason, and change nothing.

describe('demo researcher', () => {
  let server: TestServer;
  let sink: MailSink;

  beforeAll(async () => {
    sink = await startMailSink();
    server = await startServer((c) => {
      c.smtpUrl = sink.url;
    });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  async function register(email: string, locale: 'ru' | 'en'): Promise<Session> {
    const res = await server.call('POST', '/researcher', {
      body: { email, fullname: 'Demo Person' },
      locale,
    });
    expect(res.status).toBe(201);
    const mail = await sink.waitFor(email);
    const set = await server.call('POST', '/user/password-reset', {
      body: { token: mail.token, password: 'demo-pass-1' },
      locale,
    });
    expect(set.status).toBe(200);
    return server.login(email, 'demo-pass-1');
  }

  const projects = async (s: Session) =>
    (await server.call('GET', '/projects', { session: s })).body as {
      id: number;
      name: string;
      status: number;
    }[];

  it('finds an example project with a questionnaire in their language after confirming the account', async () => {
    const ru = await register('first-ru@example.org', 'ru');
    const [example, ...rest] = await projects(ru);
    expect(rest).toEqual([]);
    expect(example).toMatchObject({ name: 'Пример: опрос игроков', status: ProjectStatus.Created });
    const content = await server.call('GET', `/project?pid=${example.id}`, { session: ru });
    expect(content.status).toBe(200);
    const body = JSON.stringify(content.body);
    expect(body).toContain('Сколько вам лет?');
    expect(body).toContain('Что нам улучшить?');

    const en = await register('first-en@example.org', 'en');
    const [exampleEn] = await projects(en);
    expect(exampleEn.name).toBe('Example: a player survey');
    // Each account sees only its own example.
    expect((await projects(en)).map((p) => p.id)).not.toContain(example.id);
  });

  it('makes the example once: a password reset later adds nothing', async () => {
    const s = await register('once@example.org', 'en');
    expect(await projects(s)).toHaveLength(1);
    expect(
      (await server.call('POST', '/user/password-forgot', { body: { email: 'once@example.org' } })).status,
    ).toBe(200);
    const mail = await sink.waitFor('once@example.org', 2);
    expect(
      (
        await server.call('POST', '/user/password-reset', {
          body: { token: mail.token, password: 'demo-pass-2' },
        })
      ).status,
    ).toBe(200);
    expect(await projects(await server.login('once@example.org', 'demo-pass-2'))).toHaveLength(1);
  });

  it('gives other roles no example', async () => {
    const researcher = await server.as(Role.Researcher);
    expect(await projects(researcher)).toEqual([]);
  });

  it('refuses sending for moderation and the survey link with the reason, and changes nothing', async () => {
    const s = await register('refused@example.org', 'en');
    const [example] = await projects(s);
    const submit = await server.call('POST', '/project/status', {
      body: { pid: example.id, status: ProjectStatus.OnModeration },
      session: s,
    });
    expect(submit.status).toBe(403);
    expect(submit.body).toMatchObject({
      code: 'demo-account',
      message:
        'A demo account cannot send a project for moderation. Ask your administrator to make you a researcher.',
    });
    const link = await server.call('GET', `/project/link?pid=${example.id}`, { session: s, locale: 'ru' });
    expect(link.status).toBe(403);
    expect(link.body).toMatchObject({ code: 'demo-account' });
    expect(link.body.message).toContain('В демо-доступе нельзя получить ссылку на опрос');
    const [after] = await projects(s);
    expect(after.status).toBe(ProjectStatus.Created);
    const row = await server.app.db
      .selectFrom('projects')
      .select('link_token')
      .where('id', '=', example.id)
      .executeTakeFirstOrThrow();
    expect(row.link_token).toBeNull();
  });

  it('still lets a demo researcher build: create a project and save its questionnaire', async () => {
    const s = await register('builder@example.org', 'en');
    const created = await server.call('POST', '/projects', {
      body: { name: 'My own survey', template: 'default' },
      session: s,
    });
    expect(created.status).toBe(201);
    const [example] = (await projects(s)).filter((p) => p.name.startsWith('Example'));
    const current = await server.call('GET', `/project?pid=${example.id}`, { session: s });
    const saved = await server.call('POST', '/project', {
      body: { pid: example.id, content: current.body.content },
      headers: { 'if-match': current.headers.get('etag')! },
      session: s,
    });
    expect(saved.status).toBe(200);
  });
});
