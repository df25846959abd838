import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers';
import { insertSurveyProject } from './survey-fixtures';
import {
  newAnswer,
  newBlock,
  newPortrait,
  newQuestion,
  newQuestionnaire,
} from '../../src/domain/content/factory';
import { ProjectStatus } from '../../src/domain/projects';
import { startRespondent } from '../../server/survey/respond';
import { Role } from '../../src/domain/roles';

// Portraits are quotas that cannot overshoot (issue 13): 200 respondents finish at the same moment
// while their portrait has 10 places left; exactly 10 are counted, the rest are told politely that
// the portrait is full, and the project moves on to "Survey finished" once every portrait is full.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

it('200 concurrent completions racing for the last 10 places leave exactly the target', async () => {
  const content = {
    questionnaires: [
      newQuestionnaire({
        id: 'Q1',
        blocks: [
          newBlock({
            questions: [
              newQuestion({ id: 'only', text: 'Only', answers: [newAnswer({ id: 'a1', text: 'Yes' })] }),
            ],
          }),
        ],
      }),
    ],
    portraits: [newPortrait({ id: 'all', respondents: 50, params: [] })],
  };
  const { pid } = await insertSurveyProject(server, content, { template: 'target' });
  const db = server.app.db;
  const project = { id: pid, status: ProjectStatus.OnRotation, template: 'target' };
  const tokens: string[] = [];
  for (let i = 0; i < 200; i++) {
    const r = await startRespondent(db, { project, source: 'link' });
    if (r.outcome !== 'started') throw new Error('not started');
    tokens.push(r.token);
  }
  await db.updateTable('portrait_quotas').set({ completed: 40 }).where('project_id', '=', pid).execute();

  const results = await Promise.all(
    tokens.map((t) =>
      server.call('POST', '/survey/answer', {
        body: { at: 0, questionId: 'only', reply: { answers: ['a1'] } },
        headers: { 'x-respondent-token': t },
      }),
    ),
  );
  // Each one either took a place, was told the portrait is full, or (once the project had moved on
  // to "Survey finished") that the survey no longer takes answers.
  const outcomes = results.map((r) => (r.status === 200 ? r.body.status : `${r.status} ${r.body.state}`));
  expect(outcomes.filter((s) => s === 'completed')).toHaveLength(10);
  expect(outcomes.filter((s) => s !== 'completed' && s !== 'quotaFull' && s !== '409 finished')).toEqual([]);
  const quota = await db
    .selectFrom('portrait_quotas')
    .selectAll()
    .where('project_id', '=', pid)
    .executeTakeFirstOrThrow();
  expect(quota).toMatchObject({ target: 50, completed: 50 });
  const completed = await db
    .selectFrom('respondents')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', pid)
    .where('status', '=', 2)
    .executeTakeFirstOrThrow();
  expect(Number(completed.n)).toBe(10);
  const p = await db.selectFrom('projects').select('status').where('id', '=', pid).executeTakeFirstOrThrow();
  expect(p.status).toBe(ProjectStatus.SurveyFinished);
  // And the link now says the survey has finished (not a 404).
  const { link } = (await db
    .selectFrom('projects')
    .select('link_token as link')
    .where('id', '=', pid)
    .executeTakeFirstOrThrow()) as { link: string };
  expect((await server.call('GET', `/survey/${link}`)).body.state).toBe('finished');
});

it('racing completions with exclusions in the middle (reconciliation) still end with exactly the target accepted', async () => {
  // Issue 31: while the project runs, excluding a completed respondent frees their place, so the
  // survey takes someone else instead; the quota never overshoots and never finishes short.
  const content = {
    questionnaires: [
      newQuestionnaire({
        id: 'Q1',
        blocks: [
          newBlock({
            questions: [
              newQuestion({ id: 'only', text: 'Only', answers: [newAnswer({ id: 'a1', text: 'Yes' })] }),
            ],
          }),
        ],
      }),
    ],
    portraits: [newPortrait({ id: 'all', respondents: 20, params: [] })],
  };
  const { pid } = await insertSurveyProject(server, content, { template: 'target' });
  const db = server.app.db;
  const org = await db
    .selectFrom('projects')
    .select('organization_id')
    .where('id', '=', pid)
    .executeTakeFirstOrThrow();
  const researcher = await server.as(Role.Researcher, { organizationId: org.organization_id });
  const project = { id: pid, status: ProjectStatus.OnRotation, template: 'target' };
  const tokens: { id: number; token: string }[] = [];
  for (let i = 0; i < 120; i++) {
    const r = await startRespondent(db, { project, source: 'link' });
    if (r.outcome !== 'started') throw new Error('not started');
    tokens.push({ id: r.respondentId, token: r.token });
  }
  const excluded = new Set<number>();
  // Completes excluded once the project had finished: their places are not freed (nothing runs).
  let notFreed = 0;
  let answering = true;
  // Answers in waves of 12 at once…
  const answers = (async () => {
    const out: string[] = [];
    for (let i = 0; i < tokens.length; i += 12) {
      const wave = await Promise.all(
        tokens.slice(i, i + 12).map((t) =>
          server.call('POST', '/survey/answer', {
            body: { at: 0, questionId: 'only', reply: { answers: ['a1'] } },
            headers: { 'x-respondent-token': t.token },
          }),
        ),
      );
      out.push(...wave.map((r) => (r.status === 200 ? r.body.status : `${r.status} ${r.body.state}`)));
    }
    answering = false;
    return out;
  })();
  // …while the researcher excludes completed respondents, one or two at a time.
  const exclusions = (async () => {
    while (answering && excluded.size < 30) {
      const { status } = await db
        .selectFrom('projects')
        .select('status')
        .where('id', '=', pid)
        .executeTakeFirstOrThrow();
      if (status !== ProjectStatus.OnRotation) break;
      const done = await db
        .selectFrom('respondents')
        .select('id')
        .where('project_id', '=', pid)
        .where('status', '=', 2)
        .where('excluded', '=', 0)
        .orderBy('id', 'desc')
        .limit(2)
        .execute();
      if (done.length > 0) {
        const res = await server.call('POST', '/project/respondents/exclusion', {
          session: researcher,
          body: { pid, ids: done.map((r) => r.id), excluded: true, reason: 'Брак' },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        notFreed += res.body.affected - res.body.quotaPlaces;
        for (const r of done) excluded.add(r.id);
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const [outcomes] = await Promise.all([answers, exclusions]);
  expect(excluded.size).toBeGreaterThan(0);
  expect(outcomes.filter((s) => s !== 'completed' && s !== 'quotaFull' && s !== '409 finished')).toEqual([]);
  const accepted = await db
    .selectFrom('respondents')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', pid)
    .where('status', '=', 2)
    .where('excluded', '=', 0)
    .executeTakeFirstOrThrow();
  const quota = await db
    .selectFrom('portrait_quotas')
    .selectAll()
    .where('project_id', '=', pid)
    .executeTakeFirstOrThrow();
  const p = await db.selectFrom('projects').select('status').where('id', '=', pid).executeTakeFirstOrThrow();
  // More than the target completed; exactly the target accepted (but for a complete excluded in the
  // moment the project finished, whose place nobody could take any more), the quota at its target.
  expect(outcomes.filter((s) => s === 'completed').length).toBeGreaterThan(20);
  expect(notFreed).toBeLessThanOrEqual(2);
  expect(Number(accepted.n)).toBe(20 - notFreed);
  expect(quota).toMatchObject({ target: 20, completed: 20 });
  expect(p.status).toBe(ProjectStatus.SurveyFinished);
});
