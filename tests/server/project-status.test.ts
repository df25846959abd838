import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { createProject, fillQuestionnaire, historyKeys, setStatus } from './projects.helpers';
import { ADMIN_TRANSITIONS, SUBMITTABLE } from '../machines/projectStatus.table';
import { Role } from '../../src/domain/roles';
import { ProjectStatus, type ProjectStatusId } from '../../src/domain/projects';
import { ALL_STATUSES } from '../../src/domain/projectStatus';

// POST /project/status and GET /project/link against the transition table that the machine test
// also checks: every (from, to) pair for the Administrator, "send for moderation" for writers, the
// empty-questionnaire refusal (40501), and the stable survey link.

describe('project status on the server', () => {
  let server: TestServer;
  let org: number;
  let admin: Session;
  let researcher: Session;
  let moderator: Session;

  beforeAll(async () => {
    server = await startServer();
    org = await server.createOrganization();
    admin = await server.as(Role.Administrator, { organizationId: null });
    researcher = await server.as(Role.Researcher, { organizationId: org });
    moderator = await server.as(Role.Moderator);
  });
  afterAll(async () => {
    await server?.close();
  });

  const statusOf = async (pid: number) =>
    await server.app.db
      .selectFrom('projects')
      .select(['status', 'link_token'])
      .where('id', '=', pid)
      .executeTakeFirstOrThrow();

  it('accepts exactly the table’s transitions from the Administrator and refuses the rest with 409', async () => {
    const p = await createProject(server, researcher, { name: 'Walker' });
    await fillQuestionnaire(server, researcher, p.id);
    let checked = 0;
    for (const from of ALL_STATUSES) {
      for (const to of ALL_STATUSES) {
        if (from === to) continue;
        await setStatus(server, p.id, from);
        const res = await server.call('POST', '/project/status', {
          session: admin,
          body: { pid: p.id, status: to },
        });
        const allowed = ADMIN_TRANSITIONS[from].includes(to);
        expect(res.status, `${from} → ${to}`).toBe(allowed ? 200 : 409);
        expect((await statusOf(p.id)).status, `${from} → ${to}`).toBe(allowed ? to : from);
        if (allowed) expect(res.body.status).toBe(to);
        else expect(res.body.code).toBe('status-refused');
        checked++;
      }
    }
    expect(checked).toBe(110);
  });

  it('explains a refused transition in the caller’s language', async () => {
    const p = await createProject(server, researcher);
    await setStatus(server, p.id, ProjectStatus.ProjectFinished);
    const en = await server.call('POST', '/project/status', {
      session: admin,
      body: { pid: p.id, status: ProjectStatus.OnRotation },
    });
    expect(en.body.message).toBe('A project cannot go from “Project finished” to “On rotation”');
    const ru = await server.call('POST', '/project/status', {
      session: admin,
      body: { pid: p.id, status: ProjectStatus.OnRotation },
      locale: 'ru',
    });
    expect(ru.body.message).toBe('Нельзя перевести проект из статуса «Проект завершён» в статус «В ротации»');
  });

  it('treats setting the current status as a no-op', async () => {
    const p = await createProject(server, researcher);
    const before = (await historyKeys(server)).length;
    const res = await server.call('POST', '/project/status', {
      session: admin,
      body: { pid: p.id, status: ProjectStatus.Created },
    });
    expect(res.status).toBe(200);
    expect((await historyKeys(server)).length).toBe(before);
  });

  it('refuses an unknown status or a malformed body with 400', async () => {
    const p = await createProject(server, researcher);
    for (const body of [
      { pid: p.id, status: 12 },
      { pid: p.id },
      { pid: 'x', status: 2 },
      { pid: p.id, status: 2, extra: true },
    ]) {
      expect(
        (await server.call('POST', '/project/status', { session: admin, body })).status,
        JSON.stringify(body),
      ).toBe(400);
    }
  });

  describe('send for moderation (POST /project/status with On moderation)', () => {
    it('refuses an incomplete questionnaire (a question without text) with that problem’s code and path', async () => {
      const p = await createProject(server, researcher);
      const { writeContent } = await import('../../server/repos/content');
      const { newAnswer, newBlock, newQuestion, newQuestionnaire } =
        await import('../../src/domain/content/factory');
      const content = {
        questionnaires: [
          newQuestionnaire({
            blocks: [
              newBlock({
                questions: [
                  newQuestion({ text: '', answers: [newAnswer({ text: 'Yes' }), newAnswer({ text: 'No' })] }),
                ],
              }),
            ],
          }),
        ],
        portraits: [],
      };
      expect(await writeContent(server.app.db, p.id, 0, content, researcher.user.id)).toBe(1);
      for (const call of [
        () =>
          server.call('POST', '/project/status', {
            session: researcher,
            body: { pid: p.id, status: ProjectStatus.OnModeration },
          }),
        () => server.call('GET', `/project/link?pid=${p.id}`, { session: researcher }),
      ]) {
        const res = await call();
        expect(res.status).toBe(400);
        expect(res.body.code).toBe(40514);
        expect(res.body.field).toBe('questionnaires.0.blocks.0.questions.0');
        expect(res.body.details.length).toBeGreaterThan(0);
      }
      expect((await statusOf(p.id)).status).toBe(ProjectStatus.Created);
    });

    it('refuses an empty questionnaire with code 40501 and its translated text, changing nothing', async () => {
      const p = await createProject(server, researcher);
      const res = await server.call('POST', '/project/status', {
        session: researcher,
        body: { pid: p.id, status: ProjectStatus.OnModeration },
      });
      expect(res.status).toBe(400);
      // The client shows the code's own text (spec section 8); the server's message says what to do.
      expect(res.body.code).toBe(40501);
      expect(res.body.message).toMatch(/^Empty questionnaire/);
      const ru = await server.call('POST', '/project/status', {
        session: researcher,
        body: { pid: p.id, status: 2 },
        locale: 'ru',
      });
      expect(ru.body.message).toBe('Анкета пуста: добавьте хотя бы один вопрос');
      expect((await statusOf(p.id)).status).toBe(ProjectStatus.Created);
      // The Administrator cannot push an empty questionnaire to moderation either.
      expect(
        (await server.call('POST', '/project/status', { session: admin, body: { pid: p.id, status: 2 } }))
          .body.code,
      ).toBe(40501);
    });

    it('puts a filled Created project on moderation and makes it read-only', async () => {
      const p = await createProject(server, researcher, { name: 'Ready' });
      await fillQuestionnaire(server, researcher, p.id);
      const res = await server.call('POST', '/project/status', {
        session: researcher,
        body: { pid: p.id, status: ProjectStatus.OnModeration },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: ProjectStatus.OnModeration, editable: false });
      expect(await historyKeys(server)).toContain('projects.log.submitted');
      expect(
        (await server.call('PUT', '/project', { session: researcher, body: { id: p.id, name: 'Changed' } }))
          .status,
      ).toBe(409);
      // Sending twice is refused with a clear 409.
      const again = await server.call('POST', '/project/status', {
        session: researcher,
        body: { pid: p.id, status: ProjectStatus.OnModeration },
      });
      expect(again.status).toBe(409);
      expect(again.body.message).toBe('A project in status “On moderation” cannot be sent for moderation');
      // Now moderators see it.
      const mod = await server.call('GET', `/projects?search=Ready`, { session: moderator });
      expect(mod.body.map((x: { id: number }) => x.id)).toEqual([p.id]);
    });

    it('lets a rejected project be fixed and sent again', async () => {
      const p = await createProject(server, researcher);
      await fillQuestionnaire(server, researcher, p.id);
      await setStatus(server, p.id, ProjectStatus.Rejected);
      expect(
        (
          await server.call('PUT', '/project', {
            session: researcher,
            body: { id: p.id, name: 'Fixed after review' },
          })
        ).status,
      ).toBe(200);
      const res = await server.call('POST', '/project/status', {
        session: researcher,
        body: { pid: p.id, status: ProjectStatus.OnModeration },
      });
      expect(res.status).toBe(200);
    });

    it('gives researchers no other status change (403), and moderators none at all', async () => {
      const p = await createProject(server, researcher);
      await fillQuestionnaire(server, researcher, p.id);
      for (const to of ALL_STATUSES.filter((s) => s !== ProjectStatus.OnModeration)) {
        expect(
          (
            await server.call('POST', '/project/status', {
              session: researcher,
              body: { pid: p.id, status: to },
            })
          ).status,
        ).toBe(403);
      }
      await setStatus(server, p.id, ProjectStatus.OnModeration);
      expect(
        (
          await server.call('POST', '/project/status', {
            session: moderator,
            body: { pid: p.id, status: ProjectStatus.OnRotation },
          })
        ).status,
      ).toBe(403);
      expect((await statusOf(p.id)).status).toBe(ProjectStatus.OnModeration);
    });

    it('lets exactly one of two simultaneous sends win', async () => {
      const p = await createProject(server, researcher);
      await fillQuestionnaire(server, researcher, p.id);
      const results = await Promise.all(
        [0, 1, 2].map(() =>
          server.call('POST', '/project/status', {
            session: researcher,
            body: { pid: p.id, status: ProjectStatus.OnModeration },
          }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    });

    it('matches the table of submittable statuses', async () => {
      const p = await createProject(server, researcher);
      await fillQuestionnaire(server, researcher, p.id);
      for (const from of ALL_STATUSES) {
        await setStatus(server, p.id, from);
        const res = await server.call('POST', '/project/status', {
          session: researcher,
          body: { pid: p.id, status: ProjectStatus.OnModeration },
        });
        expect(res.status, `from ${from}`).toBe(SUBMITTABLE.includes(from as ProjectStatusId) ? 200 : 409);
      }
    });
  });

  describe('get survey link (GET /project/link)', () => {
    it('sends a Created project for moderation and answers PUBLIC_URL/s/<token>, the same every time', async () => {
      const p = await createProject(server, researcher, { template: 'directLink' });
      await fillQuestionnaire(server, researcher, p.id);
      const first = await server.call('GET', `/project/link?pid=${p.id}`, { session: researcher });
      expect(first.status).toBe(200);
      expect(first.body.status).toBe(ProjectStatus.OnModeration);
      expect(first.body.link).toMatch(new RegExp(`^${server.config.publicUrl}/s/[A-Za-z0-9_-]{22}$`));
      const second = await server.call('GET', `/project/link?pid=${p.id}`, { session: researcher });
      expect(second.body.link).toBe(first.body.link);
      // Moderators see the same link once it exists, and the admin after moving it on.
      expect((await server.call('GET', `/project/link?pid=${p.id}`, { session: moderator })).body.link).toBe(
        first.body.link,
      );
      await setStatus(server, p.id, ProjectStatus.OnRotation);
      expect((await server.call('GET', `/project/link?pid=${p.id}`, { session: admin })).body.link).toBe(
        first.body.link,
      );
      const keys = await historyKeys(server);
      expect(keys).toContain('projects.log.linkIssued');
    });

    it('refuses the link of an empty questionnaire (40501) and leaves the project as it was', async () => {
      const p = await createProject(server, researcher);
      const res = await server.call('GET', `/project/link?pid=${p.id}`, { session: researcher });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(40501);
      expect(await statusOf(p.id)).toEqual({ status: ProjectStatus.Created, link_token: null });
    });

    it('gives each project its own link, and a moderator none for a project sent back to its writers', async () => {
      const a = await createProject(server, researcher);
      const b = await createProject(server, researcher);
      for (const p of [a, b]) await fillQuestionnaire(server, researcher, p.id);
      const la = await server.call('GET', `/project/link?pid=${a.id}`, { session: researcher });
      const lb = await server.call('GET', `/project/link?pid=${b.id}`, { session: researcher });
      expect(la.body.link).not.toBe(lb.body.link);
      await setStatus(server, b.id, ProjectStatus.Rejected);
      const refused = await server.call('GET', `/project/link?pid=${b.id}`, { session: moderator });
      expect(refused.status).toBe(409);
    });
  });
});
