import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from './helpers';
import { GOOD, insertSurveyProject, surveyContent } from './survey-fixtures';
import { ProjectStatus } from '../../src/domain/projects';
import { startRespondent } from '../../server/survey/respond';
import { GROUP_BUDGET_MS, saveAnswerInGroup, writeInGroup } from '../../server/survey/group-commit';
import { counterQuestions } from '../../server/reports/counters';
import { counterTotals, recount } from '../../server/reports/recount';
import { dialectOf, walFileOf } from '../../server/db';
import { RESPONDENT_STATUS } from '../../server/db/tables-responses';

// Answers that arrive together are written together (server/survey/group-commit.ts): SQLite's in one
// transaction, each in a savepoint; PostgreSQL's in one statement. Each must come out as if written
// alone: every answer stored once, the counters right, and a write that fails failing alone.
// Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());
afterEach(() => vi.restoreAllMocks());
const onPostgres = !!process.env.TEST_DATABASE_URL;

const answer = (rt: string, at: number, questionId: string, reply: unknown) =>
  server.call('POST', '/survey/answer', {
    body: { at, questionId, reply },
    headers: { 'x-respondent-token': rt },
  });

it('answers sent at the same moment are each stored once, and the counters equal a recount', async () => {
  const { pid, link } = await insertSurveyProject(server, surveyContent());
  const tokens: string[] = [];
  for (let i = 0; i < 40; i++) {
    const res = await server.call('POST', `/survey/${link}/start`, { body: {} });
    tokens.push(res.body.token as string);
  }
  // Everyone's first page at once, a few of them twice at once; then everyone's second page.
  const first = await Promise.all([
    ...tokens.map((rt) => answer(rt, 0, 'scr', GOOD.scr)),
    ...tokens.slice(0, 5).map((rt) => answer(rt, 0, 'scr', GOOD.scr)),
  ]);
  expect(first.map((r) => r.status)).toEqual(first.map(() => 200));
  const second = await Promise.all(
    tokens.map((rt, i) => answer(rt, 1, 'one', i % 2 ? GOOD.one : { answers: ['o1'] })),
  );
  expect(second.map((r) => r.body.answered)).toEqual(tokens.map(() => 2));
  const db = server.app.db;
  const rows = await db
    .selectFrom('respondent_answers')
    .select(['respondent_id', 'question_id'])
    .where('project_id', '=', pid)
    .execute();
  expect(rows).toHaveLength(80);
  expect(new Set(rows.map((r) => `${r.respondent_id}:${r.question_id}`)).size).toBe(80);
  const questions = counterQuestions(surveyContent());
  const norm = (list: object[]) => list.map((r) => JSON.stringify(r)).sort();
  const totals = await counterTotals(db, pid);
  expect(norm(totals)).toEqual(norm(await recount(db, pid, questions)));
  const counted = totals.map((r) => [`${r.question_id}:${r.answer_id}`, r.n]);
  expect(Object.fromEntries(counted)).toMatchObject({ 'scr:yes': 40, 'one:o1': 20, 'one:o2': 20 });
});

it('a write that fails in a group fails alone: the others are written, it writes nothing', async () => {
  const db = server.app.db;
  const { pid } = await insertSurveyProject(server, surveyContent());
  const project = { id: pid, status: ProjectStatus.OnRotation, template: 'directLink' };
  const ids: number[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await startRespondent(db, { project, source: 'demo' });
    if (r.outcome === 'started') ids.push(r.respondentId);
  }
  const people = await db
    .selectFrom('respondents')
    .selectAll()
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
  const now = Date.now() + 1000;
  // Answers of the open question; the middle one with a text the database refuses on PostgreSQL.
  const writes = people.map((p, i) => ({
    respondent: { id: p.id, project_id: pid, updated_at: p.updated_at },
    move: {
      state: p.state,
      status: RESPONDENT_STATUS.started,
      updated_at: now,
      finished_at: null,
      last_question_id: null,
    },
    replaced: [],
    rows: [
      {
        question_id: 'open',
        answer_id: null,
        statement_id: null,
        value: null,
        text: i === 1 ? 'a\u0000b' : 'fine',
      },
    ],
    counts: [],
  }));
  let results: PromiseSettledResult<boolean>[];
  if (dialectOf(db) === 'postgres') {
    results = await Promise.allSettled(writes.map((w) => saveAnswerInGroup(db, w)));
  } else {
    // SQLite keeps the NUL byte: the middle write throws after writing instead.
    results = await Promise.allSettled(
      writes.map((w, i) =>
        writeInGroup(db, async (trx) => {
          await trx
            .insertInto('respondent_answers')
            .values({ ...w.rows[0], respondent_id: w.respondent.id, project_id: pid })
            .execute();
          await trx
            .updateTable('respondents')
            .set({ updated_at: now })
            .where('id', '=', w.respondent.id)
            .execute();
          if (i === 1) throw new Error('refused');
          return true;
        }),
      ),
    );
  }
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect(results.map((r) => (r.status === 'fulfilled' ? r.value : null))).toEqual([true, null, true]);
  const stored = await db
    .selectFrom('respondent_answers')
    .select('respondent_id')
    .where('project_id', '=', pid)
    .orderBy('respondent_id')
    .execute();
  expect(stored.map((r) => r.respondent_id)).toEqual([ids[0], ids[2]]);
  const moved = await db
    .selectFrom('respondents')
    .select(['id', 'updated_at'])
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
  expect(moved.map((r) => Number(r.updated_at) === now)).toEqual([true, false, true]);
});

/** Keeps the thread busy for `ms` (a write that costs that much of the event loop). */
function busy(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

it.skipIf(onPostgres)(
  'SQLite: a group takes writes only while they have held the event loop less than its budget',
  async () => {
    const db = server.app.db;
    const each = 3;
    const transactions: object[] = [];
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        writeInGroup(db, async (trx) => {
          transactions.push(trx);
          busy(each);
          return i;
        }),
      ),
    );
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const sizes = [...new Set(transactions)].map((t) => transactions.filter((x) => x === t).length);
    // A write is begun only while the group has run less than the budget: at most this many of 3 ms.
    const most = Math.ceil(GROUP_BUDGET_MS / each);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(most);
    expect(sizes.reduce((a, b) => a + b)).toBe(10);
    expect(sizes.length).toBeGreaterThanOrEqual(Math.ceil(10 / most));
  },
);

it.skipIf(onPostgres)(
  "SQLite: an answer's caller is answered only after the WAL is flushed to disk, and every other transaction keeps synchronous=FULL",
  async () => {
    const db = server.app.db;
    const wal = walFileOf(db);
    expect(wal).toMatch(/survey\.sqlite-wal$/);
    const events: string[] = [];
    // Watches the real flush (the file is still opened and flushed): when it ends, against when the
    // write's caller is answered.
    const open = fs.promises.open;
    vi.spyOn(fs.promises, 'open').mockImplementation(async (...args: Parameters<typeof open>) => {
      const handle = await open(...args);
      const datasync = handle.datasync.bind(handle);
      handle.datasync = async () => {
        await datasync();
        events.push(`flushed ${String(args[0])}`);
      };
      return handle;
    });
    const synchronousDuring: unknown[] = [];
    await writeInGroup(db, async (trx) => {
      const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(trx);
      synchronousDuring.push(rows[0].synchronous);
      return true;
    }).then(() => events.push('answered'));
    expect(events).toEqual([`flushed ${wal}`, 'answered']);
    // NORMAL (1) inside the group's own transaction; FULL (2) again for everyone else after it.
    expect(synchronousDuring).toEqual([1]);
    const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
    expect(rows[0].synchronous).toBe(2);
  },
);
