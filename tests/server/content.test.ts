import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { completeContent, getProject, insertProject, saveProject } from './content-helpers';
import { Role } from '../../src/domain/roles';
import { ProjectStatus, ProjectType } from '../../src/domain/projects';
import {
  newAnswer,
  newBlock,
  newPortrait,
  newQuestion,
  newQuestionnaire,
} from '../../src/domain/content/factory';
import { LIMITS, pictureUrl } from '../../src/domain/content/limits';
import { checkContent } from '../../src/domain/content/rules';
import { blocksSave } from '../../src/domain/content/problems';
import type { ProjectContent } from '../../src/domain/content/model';
import { arbContent } from '../unit/content-fixtures';

// GET/POST /project on the real server (SQLite, or PostgreSQL with TEST_DATABASE_URL): versions
// with ETag/If-Match, stale saves, every content code, and who may call what.

let server: TestServer;
let org: number;
let researcher: Session;

beforeAll(async () => {
  server = await startServer();
  org = await server.createOrganization();
  researcher = await server.as(Role.Researcher, { organizationId: org });
});
afterAll(async () => server?.close());

describe('GET /project', () => {
  it('answers empty content at version 0 for a project never saved, with the ETag', async () => {
    const pid = await insertProject(server, org, { name: 'Fresh' });
    const res = await getProject(server, researcher, pid);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"0"');
    expect(res.body).toMatchObject({
      pid,
      name: 'Fresh',
      type: 1,
      status: 1,
      editable: true,
      version: 0,
      content: { questionnaires: [], portraits: [] },
    });
    expect(res.body.permissions).toEqual({ blockSettings: false, customParams: false });
  });

  it("sends each saved version as it is now, the text kept for a reopen following every save, an older stored shape read with today's defaults", async () => {
    const pid = await insertProject(server, org, { name: 'Reopened' });
    const first = completeContent();
    expect((await saveProject(server, researcher, pid, first, 0)).status).toBe(200);
    expect((await getProject(server, researcher, pid)).body.content).toEqual(first);
    // Read again (from the kept text), then saved anew: the new version's content, not the kept one.
    expect((await getProject(server, researcher, pid)).body.content).toEqual(first);
    const second = structuredClone(first);
    second.questionnaires[0].blocks[0].questions[0].text = 'Reworded after a reopen';
    expect((await saveProject(server, researcher, pid, second, 1)).status).toBe(200);
    const back = await getProject(server, researcher, pid);
    expect(back.headers.get('etag')).toBe('"2"');
    expect(back.body).toMatchObject({ pid, name: 'Reopened', version: 2, editable: true });
    expect(back.body.content).toEqual(second);
    // A row written by an older server, without fields added since, comes back with their defaults.
    const old = JSON.parse(JSON.stringify(second)) as {
      questionnaires: { blocks: { questions: Record<string, unknown>[] }[] }[];
    };
    delete old.questionnaires[0].blocks[0].questions[0].customParams;
    await server.app.db
      .updateTable('project_contents')
      .set({ content: JSON.stringify(old), version: 3 })
      .where('project_id', '=', pid)
      .execute();
    const migrated = await getProject(server, researcher, pid);
    expect(migrated.body.version).toBe(3);
    expect(migrated.body.content.questionnaires[0].blocks[0].questions[0].customParams).toBe('');
  });

  it("never sends one database's project for the same id in another", async () => {
    const other = await startServer();
    try {
      const otherOrg = await other.createOrganization();
      const someone = await other.as(Role.Researcher, { organizationId: otherOrg });
      const pid = await insertProject(server, org, { name: 'Here' });
      // The same id in the other database: its ids count from 1.
      let theirPid = 0;
      while (theirPid < pid) theirPid = await insertProject(other, otherOrg, { name: 'There' });
      expect(theirPid).toBe(pid);
      const here = completeContent();
      const there = structuredClone(here);
      there.questionnaires[0].blocks[0].questions[0].text = 'Only in the other database';
      expect((await saveProject(server, researcher, pid, here, 0)).status).toBe(200);
      expect((await saveProject(other, someone, theirPid, there, 0)).status).toBe(200);
      expect((await getProject(server, researcher, pid)).body.content).toEqual(here);
      // The same id at the same version: each database's own content.
      const inOther = await getProject(other, someone, theirPid);
      expect(inOther.body.content).toEqual(there);
    } finally {
      await other.close();
    }
  });

  it('refuses a missing or malformed pid', async () => {
    expect((await server.call('GET', '/project', { session: researcher })).status).toBe(400);
    expect((await server.call('GET', '/project?pid=abc', { session: researcher })).status).toBe(400);
    expect((await server.call('GET', '/project?pid=999999', { session: researcher })).status).toBe(404);
  });
});

describe('POST /project with If-Match', () => {
  it('saves with the current version, raises it, and GET returns exactly what was saved', async () => {
    const pid = await insertProject(server, org);
    const content = completeContent();
    const res = await saveProject(server, researcher, pid, content, 0);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.get('etag')).toBe('"1"');
    expect(res.body).toMatchObject({ version: 1, questions: 2, problems: [] });
    const back = await getProject(server, researcher, pid);
    expect(back.headers.get('etag')).toBe('"1"');
    expect(back.body.content).toEqual(content);
    // Weak and bare forms of the header are read too.
    expect((await saveProject(server, researcher, pid, content, 'W/"1"')).status).toBe(200);
    expect((await saveProject(server, researcher, pid, content, '2')).body.version).toBe(3);
  });

  it('answers 428 without If-Match and 400 for an unreadable one, writing nothing', async () => {
    const pid = await insertProject(server, org);
    const res = await saveProject(server, researcher, pid, completeContent());
    expect(res.status).toBe(428);
    expect(res.body.message).toBe(
      'A save without a version is not accepted: refresh the project and save again',
    );
    expect((await saveProject(server, researcher, pid, completeContent(), '"abc"')).status).toBe(400);
    expect((await getProject(server, researcher, pid)).body.version).toBe(0);
  });

  it('answers 412 to a stale save with the server version and content, and keeps the newer one', async () => {
    const pid = await insertProject(server, org);
    const mine = completeContent();
    const theirs = completeContent();
    theirs.questionnaires[0].blocks[0].questions[0].text = 'Their text';
    expect((await saveProject(server, researcher, pid, theirs, 0)).status).toBe(200);
    const res = await saveProject(server, researcher, pid, mine, 0);
    expect(res.status).toBe(412);
    expect(res.headers.get('etag')).toBe('"1"');
    expect(res.body.code).toBe('stale');
    expect(res.body.details.version).toBe(1);
    expect(res.body.details.content).toEqual(theirs);
    expect((await getProject(server, researcher, pid)).body.content).toEqual(theirs);
    // Keeping mine: save again based on the server's version.
    expect((await saveProject(server, researcher, pid, mine, 1)).status).toBe(200);
    expect((await getProject(server, researcher, pid)).body.content).toEqual(mine);
  });

  it('lets exactly one of two concurrent saves of the same version win', async () => {
    const pid = await insertProject(server, org);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => saveProject(server, researcher, pid, completeContent(), 0)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 412, 412, 412]);
    expect((await getProject(server, researcher, pid)).body.version).toBe(1);
  });

  it('writes one log entry per save', async () => {
    const pid = await insertProject(server, org, { name: 'Logged' });
    await saveProject(server, researcher, pid, completeContent(), 0);
    const rows = await server.app.db
      .selectFrom('history')
      .selectAll()
      .where('message_key', '=', 'editor.log.saved')
      .where('user_id', '=', researcher.user.id)
      .execute();
    expect(
      rows.some(
        (r) => JSON.parse(r.message_params).pid === pid && JSON.parse(r.message_params).version === 1,
      ),
    ).toBe(true);
  });

  it('refuses content that does not have the schema shape with 400 naming the field', async () => {
    const pid = await insertProject(server, org);
    const bad = completeContent() as unknown as {
      questionnaires: { blocks: { questions: { category: string }[] }[] }[];
    };
    bad.questionnaires[0].blocks[0].questions[0].category = 'telepathy';
    const res = await saveProject(server, researcher, pid, bad, 0);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('content.questionnaires.0.blocks.0.questions.0.category');
    const json = completeContent();
    json.questionnaires[0].blocks[0].questions[1].customParams = '{not json';
    const res2 = await saveProject(server, researcher, pid, json, 0);
    expect(res2.status).toBe(400);
    expect(res2.body.message).toContain('Value must be a valid JSON string');
  });
});

describe('content codes on the server', () => {
  const q = (c: ProjectContent, b = 0, i = 0) => c.questionnaires[0].blocks[b].questions[i];
  const open = () => newQuestion({ text: 'x', category: 'open' });
  // [code, target project?, break it, refused (400) or only reported (200)]
  const cases: [number, boolean, (c: ProjectContent) => void, 'refused' | 'reported'][] = [
    [40501, false, (c) => (c.questionnaires[0].blocks[0].questions = []), 'reported'],
    [
      40502,
      false,
      (c) =>
        c.questionnaires.push(
          ...Array.from({ length: LIMITS.questionnaires }, () =>
            newQuestionnaire({ blocks: [newBlock({ questions: [open()] })] }),
          ),
        ),
      'refused',
    ],
    [40503, true, (c) => (c.portraits = []), 'reported'],
    [
      40504,
      true,
      (c) =>
        (c.portraits = Array.from({ length: LIMITS.portraits + 1 }, () =>
          newPortrait({
            questionnaireId: c.questionnaires[0].id,
            params: [{ field: 'gender', values: ['male'], min: null, max: null }],
          }),
        )),
      'refused',
    ],
    [
      40505,
      true,
      (c) => c.questionnaires.push(newQuestionnaire({ blocks: [newBlock({ questions: [open()] })] })),
      'reported',
    ],
    [
      40506,
      false,
      (c) =>
        c.portraits.push(
          newPortrait({ params: [{ field: 'gender', values: ['male'], min: null, max: null }] }),
        ),
      'refused',
    ],
    [40507, false, (c) => c.questionnaires.push(newQuestionnaire({ blocks: [] })), 'reported'],
    [
      40508,
      false,
      (c) =>
        c.questionnaires[0].blocks.push(
          ...Array.from({ length: LIMITS.blocksPerQuestionnaire }, () => newBlock({ questions: [open()] })),
        ),
      'refused',
    ],
    [40509, false, (c) => c.questionnaires[0].blocks.push(newBlock()), 'reported'],
    [
      40510,
      false,
      (c) =>
        c.questionnaires[0].blocks[0].questions.push(
          ...Array.from({ length: LIMITS.questionsPerBlock }, open),
        ),
      'refused',
    ],
    [40511, true, (c) => (c.portraits[0].params = []), 'reported'],
    [40512, true, (c) => (c.portraits[0].respondents = LIMITS.respondentsMax + 1), 'refused'],
    [40513, false, (c) => (q(c).answers = []), 'reported'],
    [40514, false, (c) => (q(c).text = ''), 'reported'],
    [
      40515,
      false,
      (c) =>
        q(c).answers.push(
          ...Array.from({ length: LIMITS.answersPerQuestion }, () => newAnswer({ text: 'a' })),
        ),
      'refused',
    ],
    [40516, false, (c) => (q(c).picture = 'https://example.com/x.png'), 'refused'],
    [40517, false, (c) => (q(c).answers[0].text = ''), 'reported'],
    [40518, false, (c) => (q(c).answers[0].picture = pictureUrl('b'.repeat(64), 'png')), 'refused'],
  ];

  it.each(cases)('%i', async (code, target, breakIt, outcome) => {
    const pid = await insertProject(server, org, { type: target ? ProjectType.Target : ProjectType.Default });
    const content = completeContent(target);
    breakIt(content);
    const res = await saveProject(server, researcher, pid, content, 0);
    if (outcome === 'refused') {
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(400);
      expect(res.body.code).toBe(code);
      expect(res.body.details.some((p: { code: number }) => p.code === code)).toBe(true);
      expect(typeof res.body.field).toBe('string');
      // Nothing half-written.
      expect((await getProject(server, researcher, pid)).body.version).toBe(0);
    } else {
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
      expect(
        res.body.problems.some(
          (p: { code: number; severity: string }) => p.code === code && p.severity === 'incomplete',
        ),
      ).toBe(true);
    }
  });

  it('refuses a picture reference that was never uploaded, at its path (40516 checked against uploads)', async () => {
    const pid = await insertProject(server, org);
    const content = completeContent();
    q(content).picture = pictureUrl('c'.repeat(64), 'jpg');
    const res = await saveProject(server, researcher, pid, content, 0);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 40516, field: 'questionnaires.0.blocks.0.questions.0' });
  });

  it('refuses a picture still waiting in a browser queue (local-picture:), on a question or an answer, writing nothing', async () => {
    const pid = await insertProject(server, org);
    const content = completeContent();
    q(content).answers[1].picture = 'local-picture:0123abcd';
    const res = await saveProject(server, researcher, pid, content, 0);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'picturePending',
      field: 'questionnaires.0.blocks.0.questions.0.answers.1',
      message:
        'The picture is not uploaded yet: it waits in this browser for the connection and uploads with the save',
    });
    q(content).picture = 'local-picture:0123abcd';
    const ru = await server.call('POST', '/project', {
      session: researcher,
      body: { pid, content },
      headers: { 'if-match': '"0"' },
      locale: 'ru',
    });
    expect(ru.status).toBe(400);
    expect(ru.body.field).toBe('questionnaires.0.blocks.0.questions.0');
    expect(ru.body.message).toMatch(/^Изображение ещё не загружено/);
    expect((await getProject(server, researcher, pid)).body.version).toBe(0);
  });

  it('refuses circular redirects with the spec message, naming the redirects', async () => {
    const pid = await insertProject(server, org);
    const content = completeContent();
    q(content, 0, 1).redirect = { kind: 'questionInBlock', target: q(content).id };
    const res = await saveProject(server, researcher, pid, content, 0);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Unable to save project. Circular or incorrect redirects are set');
    expect(res.body.code).toBe('redirectCycle');
    expect(res.body.details[0].redirects).toEqual(['questionnaires.0.blocks.0.questions.1.redirect']);
    const ru = await server.call('POST', '/project', {
      session: researcher,
      body: { pid, content },
      headers: { 'if-match': '"0"' },
      locale: 'ru',
    });
    expect(ru.body.message).toBe('Невозможно сохранить проект. Заданы циклические или некорректные переходы');
  });

  it('refuses invalid portraits with the spec message', async () => {
    const pid = await insertProject(server, org, { type: ProjectType.Target });
    const content = completeContent(true);
    content.portraits[0].params = [{ field: 'age', values: [], min: 10, max: 120 }];
    const res = await saveProject(server, researcher, pid, content, 0);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Check all portraits for correctness of filled data');
    expect(res.body.field).toBe('portraits.0.params.0');
  });

  it('refuses the answer limit with the spec messages', async () => {
    const pid = await insertProject(server, org);
    const content = completeContent();
    Object.assign(q(content), { category: 'fewAnswers', answerLimit: { min: 1, max: 5 } });
    expect((await saveProject(server, researcher, pid, content, 0)).body.message).toBe(
      'The maximum number of replies has been exceeded, disable the reply limit or adjust the value',
    );
    q(content).answerLimit = { min: 4, max: 5 };
    expect((await saveProject(server, researcher, pid, content, 0)).body.message).toBe(
      'Missing number of responses, disable the response limit or adjust the value',
    );
  });

  it('agrees with the domain rules on random content: refuses exactly what they refuse, stores the rest unchanged', async () => {
    const pid = await insertProject(server, org, { type: ProjectType.Target });
    let version = 0;
    await fc.assert(
      fc.asyncProperty(arbContent, async (content) => {
        const errors = blocksSave(checkContent(content, { projectType: ProjectType.Target }));
        const res = await saveProject(server, researcher, pid, content, version);
        if (errors.length > 0) {
          expect(res.status).toBe(400);
          expect(res.body.details.map((p: { rule: string; path: string }) => `${p.rule}@${p.path}`)).toEqual(
            errors.map((p) => `${p.rule}@${p.path}`),
          );
          return;
        }
        expect(res.status).toBe(200);
        version = res.body.version;
        const back = await getProject(server, researcher, pid);
        expect(back.body.content).toEqual(content);
      }),
      { numRuns: 30 },
    );
  });
});

describe('who may call what', () => {
  let other: number;
  let created: number;
  let sent: number;
  const sessions: Partial<Record<string, Session>> = {};

  beforeAll(async () => {
    other = await server.createOrganization();
    created = await insertProject(server, org);
    sent = await insertProject(server, org, { status: ProjectStatus.OnModeration });
    await saveProject(server, researcher, created, completeContent(), 0);
    sessions.admin = await server.as(Role.Administrator);
    sessions.moderator = await server.as(Role.Moderator);
    sessions.moderatorVk = await server.as(Role.ModeratorVK);
    sessions.demo = await server.as(Role.DemoResearcher, { organizationId: org });
    sessions.stranger = await server.as(Role.Researcher, { organizationId: other });
    sessions.issuer = await server.as(Role.Issuer, { organizationId: org });
  });

  it.each([
    ['admin', 'created', 200],
    ['admin', 'sent', 200],
    ['demo', 'created', 200],
    ['stranger', 'created', 404],
    ['moderator', 'created', 404],
    ['moderator', 'sent', 200],
    ['moderatorVk', 'sent', 200],
    ['issuer', 'created', 404],
  ])('GET: %s on the %s project → %i', async (who, which, status) => {
    const res = await getProject(server, sessions[who]!, which === 'created' ? created : sent);
    expect(res.status).toBe(status);
    if (status === 200)
      expect(res.body.editable).toBe(which === 'created' && (who === 'admin' || who === 'demo'));
  });

  it.each([
    ['admin', 'created', 200],
    ['demo', 'created', 200],
    ['stranger', 'created', 404],
    ['issuer', 'created', 404],
    ['moderator', 'sent', 403],
    ['admin', 'sent', 409],
  ])('POST: %s on the %s project → %i', async (who, which, status) => {
    const pid = which === 'created' ? created : sent;
    const version = (await getProject(server, sessions.admin!, pid)).body.version;
    const res = await saveProject(server, sessions[who]!, pid, completeContent(), version);
    expect(res.status).toBe(status);
  });

  it('refuses both calls without a sign-in', async () => {
    expect((await server.call('GET', `/project?pid=${created}`)).status).toBe(401);
    expect(
      (
        await server.call('POST', '/project', {
          body: { pid: created, content: completeContent() },
          headers: { 'if-match': '"1"' },
        })
      ).status,
    ).toBe(401);
  });

  it('lets only an administrator change customParams and block settings', async () => {
    const pid = await insertProject(server, org);
    const content = completeContent();
    await saveProject(server, researcher, pid, content, 0);
    const withParams = structuredClone(content);
    withParams.questionnaires[0].blocks[0].questions[0].customParams = '{"source":"vk"}';
    const res = await saveProject(server, researcher, pid, withParams, 1);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(
      'Only an administrator or a moderator may change the customParams of questions',
    );
    const withUrl = structuredClone(content);
    withUrl.questionnaires[0].blocks[0].callbackUrl = 'https://example.com/done';
    expect((await saveProject(server, researcher, pid, withUrl, 1)).status).toBe(403);
    expect((await saveProject(server, sessions.admin!, pid, withParams, 1)).status).toBe(200);
    // The researcher keeps saving other changes without touching what the administrator set.
    const edited = structuredClone(withParams);
    edited.questionnaires[0].blocks[0].questions[1].text = 'Changed';
    expect((await saveProject(server, researcher, pid, edited, 2)).status).toBe(200);
  });
});
