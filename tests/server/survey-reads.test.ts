import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers';
import { GOOD, insertSurveyProject, surveyContent } from './survey-fixtures';
import { ProjectStatus } from '../../src/domain/projects';
import { sha256 } from '../../server/repos/respondents';
import { cachedRespondent, forgetRespondent } from '../../server/survey/respondent-cache';

// The respondents of answers that this process does not keep in memory (past its cache, after a
// restart, behind a balancer) are read together, in one statement per moment
// (server/survey/respondent-reads.ts). Each answer must still get its own respondent, as if read
// alone: the right rows written, an unknown token refused, a paused project refused, a page sent
// twice at once stored once. Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

const answer = (rt: string, at: number, questionId: string, reply: unknown) =>
  server.call('POST', '/survey/answer', {
    body: { at, questionId, reply },
    headers: { 'x-respondent-token': rt },
  });

/** Respondents started through the link, then dropped from the process's memory. */
async function startForgotten(link: string, n: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await server.call('POST', `/survey/${link}/start`, { body: {} });
    expect(res.status).toBe(200);
    tokens.push(res.body.token as string);
  }
  for (const t of tokens) forgetRespondent(server.app.db, sha256(t));
  return tokens;
}

it('answers of respondents read together each get their own respondent', async () => {
  const db = server.app.db;
  const open = await insertSurveyProject(server, surveyContent());
  const paused = await insertSurveyProject(server, surveyContent());
  const tokens = await startForgotten(open.link, 40);
  const [closed] = await startForgotten(paused.link, 1);
  await db
    .updateTable('projects')
    .set({ status: ProjectStatus.Paused })
    .where('id', '=', paused.pid)
    .execute();
  expect(tokens.some((t) => cachedRespondent(db, sha256(t)))).toBe(false);

  // One moment: forty first pages, the first one twice, a token nobody has, and a paused project's.
  const [sent, twice, unknown, refused] = await Promise.all([
    Promise.all(tokens.map((rt) => answer(rt, 0, 'scr', GOOD.scr))),
    answer(tokens[0], 0, 'scr', GOOD.scr),
    answer('x'.repeat(22), 0, 'scr', GOOD.scr),
    answer(closed, 0, 'scr', GOOD.scr),
  ]);
  expect(sent.map((r) => [r.status, r.body.answered])).toEqual(tokens.map(() => [200, 1]));
  expect([twice.status, twice.body.answered]).toEqual([200, 1]);
  expect(unknown.status).toBe(404);
  expect([refused.status, refused.body.code]).toEqual([409, 'survey-paused']);

  // Each respondent's row written once, for them; the paused project's respondent wrote nothing.
  const rows = await db
    .selectFrom('respondent_answers')
    .innerJoin('respondents', 'respondents.id', 'respondent_answers.respondent_id')
    .select(['respondents.token_hash', 'respondent_answers.question_id', 'respondent_answers.answer_id'])
    .where('respondent_answers.project_id', 'in', [open.pid, paused.pid])
    .execute();
  expect(rows.map((r) => r.token_hash).sort()).toEqual(tokens.map(sha256).sort());
  expect(new Set(rows.map((r) => `${r.question_id}:${r.answer_id}`))).toEqual(new Set(['scr:yes']));

  // Read once, they are kept: the next page needs no read.
  expect(tokens.every((t) => cachedRespondent(db, sha256(t)))).toBe(true);
  const next = await Promise.all(tokens.map((rt) => answer(rt, 1, 'one', GOOD.one)));
  expect(next.map((r) => r.body.answered)).toEqual(tokens.map(() => 2));
});

it('a column added by a newer release while the server runs does not stop answers', async () => {
  // A rolling upgrade: another server runs a migration that adds a column to respondents while this
  // one keeps answering. PostgreSQL refuses a prepared statement whose result type changed, so the
  // answers' read names its columns rather than `respondents.*` (server/repos/respondents.ts).
  const db = server.app.db;
  const { link } = await insertSurveyProject(server, surveyContent());
  const before = await startForgotten(link, 30);
  const first = await Promise.all(before.map((rt) => answer(rt, 0, 'scr', GOOD.scr)));
  expect(first.map((r) => r.status)).toEqual(before.map(() => 200));

  await sql`alter table respondents add column from_a_newer_release text`.execute(db);
  try {
    for (const t of before) forgetRespondent(db, sha256(t));
    const after = await Promise.all(before.map((rt) => answer(rt, 1, 'one', GOOD.one)));
    expect(after.map((r) => [r.status, r.body.answered])).toEqual(before.map(() => [200, 2]));
  } finally {
    await sql`alter table respondents drop column from_a_newer_release`.execute(db);
  }
});
