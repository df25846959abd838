import crypto from 'node:crypto';
import { CompiledQuery, sql } from 'kysely';
import { runPrepared, type Db } from '../db';
import type { AnswerRow } from '../../src/domain/flow';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import { ProjectStatus } from '../../src/domain/projects';
import { COUNTER_KEY_SQL, countReplyRowsSqlite, type CounterRow } from '../reports/counters';

// Respondents, their answer rows, portrait quotas and survey tickets (server/db/tables-responses.ts
// documents what each row means; the reports read them).

type Executor = Pick<Db, 'selectFrom' | 'insertInto' | 'deleteFrom' | 'updateTable'>;

export const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
/** 128 random bits, URL-safe. */
export const newToken = () => crypto.randomBytes(16).toString('base64url');

export async function respondentByToken(db: Executor, token: string) {
  return db.selectFrom('respondents').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirst();
}

/** The respondent with their project's status, in one query (every answer needs both). */
export async function respondentWithStatus(db: Executor, token: string) {
  return db
    .selectFrom('respondents')
    .innerJoin('projects', 'projects.id', 'respondents.project_id')
    .selectAll('respondents')
    .select('projects.status as project_status')
    .where('respondents.token_hash', '=', sha256(token))
    .executeTakeFirst();
}
/** The same by id (an answer's fresh read after a kept row proved out of date). */
export async function respondentWithStatusById(db: Executor, id: number) {
  return db
    .selectFrom('respondents')
    .innerJoin('projects', 'projects.id', 'respondents.project_id')
    .selectAll('respondents')
    .select('projects.status as project_status')
    .where('respondents.id', '=', id)
    .executeTakeFirst();
}
export type RespondentRow = NonNullable<Awaited<ReturnType<typeof respondentByToken>>>;

/** The respondent's columns an answer changes. */
export interface RespondentMove {
  state: string;
  status: number;
  updated_at: number;
  finished_at: number | null;
}

/**
 * PostgreSQL's whole answer write as one statement (saveAnswer's parameters, in order): the
 * respondent moved from the state checked, the replaced rows deleted, the new rows and the report's
 * counters added, each only when the respondent moved. Rows go in as arrays through unnest, so the
 * text is the same for any number of rows (one prepared statement); the counters' rows come in key
 * order (`with ordinality`), so concurrent answers lock them in the same order.
 */
const SAVE_ANSWER_PG = `
  with moved as (
    update respondents set state = $1, status = $2, updated_at = $3, finished_at = $4
    where id = $5 and status = $6 and updated_at = $7
      and exists (select 1 from projects where id = $8 and status = $9)
    returning id
  ), dropped as (
    delete from respondent_answers
    where respondent_id in (select id from moved) and question_id = any($10::text[])
  ), added as (
    insert into respondent_answers (respondent_id, project_id, question_id, answer_id, statement_id, value, text)
    select moved.id, $8, r.question_id, r.answer_id, r.statement_id, r.value, r.text
    from moved, unnest($11::text[], $12::text[], $13::text[], $14::float8[], $15::text[])
      as r(question_id, answer_id, statement_id, value, text)
  ), counted as (
    insert into report_counts (project_id, portrait_id, gender, education, age, shard,
      question_id, kind, answer_id, statement_id, has_value, value, place, n)
    select $8, $16::text, $17::text, $18::text, $19::int, $20::int, c.question_id, c.kind, c.answer_id, c.statement_id, c.has_value,
      c.value, c.place, c.n
    from moved, unnest($21::text[], $22::int[], $23::text[], $24::text[], $25::int[], $26::float8[],
      $27::text[], $28::int[]) with ordinality
      as c(question_id, kind, answer_id, statement_id, has_value, value, place, n, i)
    order by c.i
    on conflict (${COUNTER_KEY_SQL}) do update set n = report_counts.n + excluded.n
  )
  select count(*)::int as moved from moved`;

/**
 * Moves a started respondent to the answer's state, only from the state the answer was checked
 * against (their updated_at, which every answer moves strictly forward, so the state text itself is
 * neither sent twice nor compared) and only while the project is On rotation; replaces the answer rows of the `replaced`
 * questions by `rows` and adds `counts` to the report's counters. False, with nothing written, when
 * the respondent moved first (the same page sent twice at once, or a state read earlier and kept)
 * or the project is no longer open.
 * PostgreSQL does it all in one statement (data-modifying CTEs: atomic without a transaction, one
 * round trip instead of five); SQLite, where a statement costs no round trip and CTEs cannot write,
 * in up to four, which the caller runs in a transaction.
 */
export async function saveAnswer(
  db: Db,
  onPostgres: boolean,
  respondent: { id: number; project_id: number; updated_at: number },
  move: RespondentMove,
  replaced: string[],
  rows: AnswerRow[],
  counts: CounterRow[],
): Promise<boolean> {
  if (onPostgres) {
    const col = <K extends keyof AnswerRow>(k: K) => rows.map((r) => r[k] ?? null);
    const count = <K extends keyof CounterRow>(k: K) => counts.map((c) => c[k]);
    const who = counts[0] ?? { portrait_id: '', gender: '', education: '', age: -1, shard: 0 };
    const values = [
      move.state,
      move.status,
      move.updated_at,
      move.finished_at,
      respondent.id,
      RESPONDENT_STATUS.started,
      respondent.updated_at,
      respondent.project_id,
      ProjectStatus.OnRotation,
      replaced,
      col('question_id'),
      col('answer_id'),
      col('statement_id'),
      col('value'),
      col('text'),
      // The respondent's counter key (the same for every row of one answer), then the rows.
      who.portrait_id,
      who.gender,
      who.education,
      who.age,
      who.shard,
      count('question_id'),
      count('kind'),
      count('answer_id'),
      count('statement_id'),
      count('has_value'),
      count('value'),
      count('place'),
      count('n'),
    ];
    // Outside a transaction, a named prepared statement: parsed and planned once per connection.
    const [row] = db.isTransaction
      ? (await db.executeQuery<{ moved: number }>(CompiledQuery.raw(SAVE_ANSWER_PG, values))).rows
      : await runPrepared<{ moved: number }>(db, 'survey_save_answer', SAVE_ANSWER_PG, values);
    return Number(row?.moved) === 1;
  }
  // The query builder's work (building, compiling) cost more than SQLite's: a fixed text.
  const moved = await db.executeQuery(
    CompiledQuery.raw(SAVE_ANSWER_SQLITE, [
      move.state,
      move.status,
      move.updated_at,
      move.finished_at,
      respondent.id,
      RESPONDENT_STATUS.started,
      respondent.updated_at,
      respondent.project_id,
      ProjectStatus.OnRotation,
    ]),
  );
  if (Number(moved.numAffectedRows) !== 1) return false;
  await writeAnswerRows(db, respondent.id, respondent.project_id, replaced, rows);
  await countReplyRowsSqlite(db, counts);
  return true;
}

/** SQLite's move of the respondent (saveAnswer): the same conditions as PostgreSQL's `moved`. */
const SAVE_ANSWER_SQLITE = `update respondents set state = ?, status = ?, updated_at = ?, finished_at = ?
  where id = ? and status = ? and updated_at = ?
    and exists (select 1 from projects where id = ? and status = ?)`;

export async function writeAnswerRows(
  db: Executor,
  respondentId: number,
  projectId: number,
  replaced: string[],
  rows: AnswerRow[],
): Promise<void> {
  // Nothing to replace when the page is answered for the first time: no delete round trip.
  if (replaced.length > 0)
    await db
      .deleteFrom('respondent_answers')
      .where('respondent_id', '=', respondentId)
      .where('question_id', 'in', replaced)
      .execute();
  if (rows.length > 0)
    await db
      .insertInto('respondent_answers')
      .values(rows.map((r) => ({ ...r, respondent_id: respondentId, project_id: projectId })))
      .execute();
}

/** Creates the quota rows of the project's portraits that do not have one yet (targets from the content). */
export async function ensureQuotas(
  db: Executor,
  projectId: number,
  portraits: { id: string; respondents: number }[],
): Promise<void> {
  if (portraits.length === 0) return;
  const have = await db
    .selectFrom('portrait_quotas')
    .select('portrait_id')
    .where('project_id', '=', projectId)
    .execute();
  const known = new Set(have.map((r) => r.portrait_id));
  const missing = portraits.filter((p) => !known.has(p.id));
  if (missing.length === 0) return;
  await db
    .insertInto('portrait_quotas')
    .values(
      missing.map((p) => ({ project_id: projectId, portrait_id: p.id, target: p.respondents, completed: 0 })),
    )
    .onConflict((oc) => oc.columns(['project_id', 'portrait_id']).doNothing())
    .execute();
}

export async function quotas(db: Executor, projectId: number) {
  return db.selectFrom('portrait_quotas').selectAll().where('project_id', '=', projectId).execute();
}

/**
 * Counts one completion against the portrait, only while it has room: one conditional UPDATE, so
 * concurrent completions can never pass the target on either database. False when it is full.
 */
export async function takeQuotaPlace(db: Executor, projectId: number, portraitId: string): Promise<boolean> {
  const res = await db
    .updateTable('portrait_quotas')
    .set({ completed: sql`completed + 1` })
    .where('project_id', '=', projectId)
    .where('portrait_id', '=', portraitId)
    .whereRef('completed', '<', 'target')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Adds one to each rate-limit counter and answers the highest count over its limit, in one statement. */
export async function countHits(
  db: Pick<Db, 'insertInto'>,
  limits: { key: string; max: number }[],
  windowMs: number,
  now = Date.now(),
): Promise<boolean> {
  if (limits.length === 0) return true;
  const expired = sql<boolean>`rate_limits.window_start <= ${now - windowMs}`;
  const rows = await db
    .insertInto('rate_limits')
    .values(limits.map((l) => ({ key: l.key, window_start: now, count: 1 })))
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql`case when ${expired} then 1 else rate_limits.count + 1 end`,
        window_start: sql`case when ${expired} then ${now} else rate_limits.window_start end`,
      }),
    )
    .returning(['key', 'count'])
    .execute();
  const max = new Map(limits.map((l) => [l.key, l.max]));
  return rows.every((r) => Number(r.count) <= (max.get(r.key) ?? Infinity));
}

/** Adds one to a rate-limit counter and answers the count in the current window (one statement). */
export async function countHit(
  db: Pick<Db, 'insertInto'>,
  key: string,
  windowMs: number,
  now = Date.now(),
): Promise<number> {
  const expired = sql<boolean>`rate_limits.window_start <= ${now - windowMs}`;
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: now, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql`case when ${expired} then 1 else rate_limits.count + 1 end`,
        window_start: sql`case when ${expired} then ${now} else rate_limits.window_start end`,
      }),
    )
    .returning('count')
    .executeTakeFirst();
  return Number(row?.count ?? 1);
}
