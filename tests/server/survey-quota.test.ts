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
