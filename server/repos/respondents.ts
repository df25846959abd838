import crypto from 'node:crypto';
import { CompiledQuery, sql } from 'kysely';
import { dialectOf, runPrepared, type Db } from '../db';
import type { AnswerRow } from '../../src/domain/flow';
import { RESPONDENT_STATUS, type RespondentsTable } from '../db/tables-responses';
import { ProjectStatus } from '../../src/domain/projects';
import {
  CELL_KEY,
  CITY_KEY_SQL,
  COUNTER_KEY_SQL,
  countReplyRowsSqlite,
  type CounterRow,
} from '../reports/counters';

// Respondents, their answer rows, portrait quotas and survey tickets (server/db/tables-responses.ts
// documents what each row means; the reports read them).

type Executor = Pick<Db, 'selectFrom' | 'insertInto' | 'deleteFrom' | 'updateTable'>;

export const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
/** 128 random bits, URL-safe. */
export const newToken = () => crypto.randomBytes(16).toString('base64url');

export async function respondentByToken(db: Executor, token: string) {
  return db.selectFrom('respondents').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirst();
}

export type RespondentRow = NonNullable<Awaited<ReturnType<typeof respondentByToken>>>;

/**
 * Every column of respondents, by name. The answers' read (RESPONDENTS_BY_TOKEN) is a named prepared
 * statement on PostgreSQL: with `respondents.*` a column added by a newer release's migration (a
 * rolling upgrade: the other servers still run) would change its result type, which PostgreSQL
 * refuses for a prepared statement ("cached plan must not change result type") on every answer until
 * the process restarts. Named columns keep the old servers reading what they know.
 */
const RESPONDENT_COLUMNS = [
  'id',
  'project_id',
  'questionnaire_id',
  'portrait_id',
  'token_hash',
  'source',
  'game_id',
  'player_id',
  'gender',
  'age',
  'city',
  'region',
  'education',
  'platform',
  'status',
  'state',
  'locale',
  'started_at',
  'updated_at',
  'finished_at',
  'last_question_id',
  'excluded',
  'exclusion',
  'erased_at',
  'flags',
  'flag_params',
  'browser_hash',
  'language',
] as const satisfies readonly (keyof RespondentsTable)[];
// A column added to RespondentsTable and not listed above fails to compile here.
type Unlisted = Exclude<keyof RespondentsTable, (typeof RESPONDENT_COLUMNS)[number]>;
const everyColumnListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyColumnListed;

const RESPONDENTS_SELECT = `select ${RESPONDENT_COLUMNS.map((c) => `r.${c}`).join(', ')}, p.status as project_status
  from respondents r join projects p on p.id = r.project_id`;
/** The respondents of some answers with their projects' status, by token hash: one indexed read. */
const RESPONDENTS_BY_TOKEN_PG = `${RESPONDENTS_SELECT} where r.token_hash = any($1::text[])`;
const RESPONDENTS_BY_TOKEN_SQLITE = `${RESPONDENTS_SELECT} where r.token_hash in (select value from json_each(?))`;

/**
 * The respondents of several answers, with their project's status, in one statement through the
 * token_hash index (server/survey/respondent-reads.ts gathers them): on PostgreSQL a named prepared
 * statement over an array, on SQLite a fixed text over a JSON array. Unknown hashes are left out.
 */
export async function respondentsByTokenHash(
  db: Db,
  hashes: string[],
): Promise<(RespondentRow & { project_status: number })[]> {
  type Row = RespondentRow & { project_status: number };
  if (dialectOf(db) === 'postgres')
    return runPrepared<Row>(db, 'survey_respondents_by_token', RESPONDENTS_BY_TOKEN_PG, [hashes]);
  return (
    await db.executeQuery<Row>(CompiledQuery.raw(RESPONDENTS_BY_TOKEN_SQLITE, [JSON.stringify(hashes)]))
  ).rows;
}

/** The respondent's columns an answer changes. */
export interface RespondentMove {
  state: string;
  status: number;
  updated_at: number;
  finished_at: number | null;
  /** The question shown next, or the last answered when the survey ends (the funnel, 018). */
  last_question_id: string | null;
}

/**
 * PostgreSQL's whole write of one or more answers (of different respondents) as one statement
 * (saveAnswersPg's parameters, in order): each respondent moved from the state checked, the replaced
 * rows deleted, the new rows and the report's counters added, each only for the respondents that
 * moved. Everything goes in as arrays through unnest, so the text is the same for any number of
 * answers and rows (one prepared statement). The counters of several respondents are summed per key
 * and upserted in key order, so concurrent statements lock counter rows in the same order; the
 * per-city counters take the same deltas, keyed by city instead of age.
 */
const SAVE_ANSWERS_PG = `
  with input as (
    select * from unnest($1::int[], $2::bigint[], $3::text[], $4::int[], $5::bigint[], $6::bigint[], $7::int[],
      $34::text[])
      as i(id, old, state, status, updated_at, finished_at, project_id, last_question_id)
  ), moved as (
    update respondents r
    set state = i.state, status = i.status, updated_at = i.updated_at, finished_at = i.finished_at,
      last_question_id = i.last_question_id
    from input i
    where r.id = i.id and r.status = $8 and r.updated_at = i.old
      and exists (select 1 from projects p where p.id = i.project_id and p.status = $9)
    returning r.id, r.project_id
  ), dropped as (
    delete from respondent_answers a
    using unnest($10::int[], $11::text[]) as d(rid, question_id)
    where a.respondent_id = d.rid and a.question_id = d.question_id and d.rid in (select id from moved)
  ), added as (
    insert into respondent_answers (respondent_id, project_id, question_id, answer_id, statement_id, value, text)
    select m.id, m.project_id, r.question_id, r.answer_id, r.statement_id, r.value, r.text
    from unnest($12::int[], $13::text[], $14::text[], $15::text[], $16::float8[], $17::text[])
      as r(rid, question_id, answer_id, statement_id, value, text)
    join moved m on m.id = r.rid
  ), deltas as (
    select m.project_id, c.*
    from unnest($18::int[], $19::text[], $20::int[], $21::text[], $22::text[], $23::int[], $24::float8[],
      $25::text[], $26::text[], $27::text[], $28::text[], $29::int[], $30::int[], $31::int[], $32::text[],
      $33::int[], $35::text[])
      as c(rid, question_id, kind, answer_id, statement_id, has_value, value, place, portrait_id, gender,
        education, age, shard, n, city, city_shard, language)
    join moved m on m.id = c.rid
  ), counted as (
    insert into report_counts (${COUNTER_KEY_SQL}, n)
    select project_id, question_id, kind, answer_id, statement_id, has_value, value, place,
      portrait_id, gender, education, age, language, shard, sum(n)::int
    from deltas
    group by ${COUNTER_KEY_SQL}
    having sum(n) <> 0
    order by ${COUNTER_KEY_SQL}
    on conflict (${COUNTER_KEY_SQL}) do update set n = report_counts.n + excluded.n
  ), city_counted as (
    insert into report_city_counts (${CITY_KEY_SQL}, n)
    select project_id, city, question_id, kind, answer_id, statement_id, has_value, value, place,
      portrait_id, gender, education, language, city_shard, sum(n)::int
    from deltas
    where city <> ''
    group by project_id, city, question_id, kind, answer_id, statement_id, has_value, value, place,
      portrait_id, gender, education, language, city_shard
    having sum(n) <> 0
    order by project_id, city, question_id, kind, answer_id, statement_id, has_value, value, place,
      portrait_id, gender, education, language, city_shard
    on conflict (${CITY_KEY_SQL}) do update set n = report_city_counts.n + excluded.n
  )
  select id from moved`;

/** One answer's write, as saveAnswer and saveAnswersPg take it. */
export interface AnswerWrite {
  respondent: { id: number; project_id: number; updated_at: number };
  move: RespondentMove;
  replaced: string[];
  rows: AnswerRow[];
  counts: CounterRow[];
}

/**
 * Writes answers of different respondents in one PostgreSQL statement (SAVE_ANSWERS_PG); answers
 * the ids of the respondents that moved (the others were moved first by someone else, or their
 * project is no longer open: nothing of theirs was written). Outside a transaction it runs as a
 * named prepared statement, parsed and planned once per connection.
 */
export async function saveAnswersPg(db: Db, writes: AnswerWrite[]): Promise<Set<number>> {
  const w = [...writes].sort((a, b) => a.respondent.id - b.respondent.id);
  const each = <T>(f: (x: AnswerWrite) => T) => w.map(f);
  const flat = <T>(f: (x: AnswerWrite) => T[]) => w.flatMap(f);
  const values = [
    each((x) => x.respondent.id),
    each((x) => x.respondent.updated_at),
    each((x) => x.move.state),
    each((x) => x.move.status),
    each((x) => x.move.updated_at),
    each((x) => x.move.finished_at),
    each((x) => x.respondent.project_id),
    RESPONDENT_STATUS.started,
    ProjectStatus.OnRotation,
    flat((x) => x.replaced.map(() => x.respondent.id)),
    flat((x) => x.replaced),
    flat((x) => x.rows.map(() => x.respondent.id)),
    ...(['question_id', 'answer_id', 'statement_id', 'value', 'text'] as const).map((k) =>
      flat((x) => x.rows.map((r) => r[k] ?? null)),
    ),
    flat((x) => x.counts.map(() => x.respondent.id)),
    ...(
      [...CELL_KEY, 'portrait_id', 'gender', 'education', 'age', 'shard', 'n', 'city', 'city_shard'] as const
    ).map((k) => flat((x) => x.counts.map((c) => c[k]))),
    each((x) => x.move.last_question_id),
    flat((x) => x.counts.map((c) => c.language)),
  ];
  const rows = db.isTransaction
    ? (await db.executeQuery<{ id: number }>(CompiledQuery.raw(SAVE_ANSWERS_PG, values))).rows
    : await runPrepared<{ id: number }>(db, 'survey_save_answers', SAVE_ANSWERS_PG, values);
  return new Set(rows.map((r) => Number(r.id)));
}

/** One answer's write alone on PostgreSQL (saveAnswersPg with one answer). */
export async function saveAnswerRow(db: Db, write: AnswerWrite): Promise<boolean> {
  return (await saveAnswersPg(db, [write])).has(write.respondent.id);
}

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
  if (onPostgres)
    return (await saveAnswersPg(db, [{ respondent, move, replaced, rows, counts }])).has(respondent.id);
  // The query builder's work (building, compiling) cost more than SQLite's: a fixed text.
  const moved = await db.executeQuery(
    CompiledQuery.raw(SAVE_ANSWER_SQLITE, [
      move.state,
      move.status,
      move.updated_at,
      move.finished_at,
      move.last_question_id,
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
const SAVE_ANSWER_SQLITE = `update respondents set state = ?, status = ?, updated_at = ?, finished_at = ?,
  last_question_id = ?
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

/** `locked`: FOR UPDATE, inside a PostgreSQL transaction (who finishes or frees a place waits its turn). */
export async function quotas(db: Executor, projectId: number, locked = false) {
  const q = db.selectFrom('portrait_quotas').selectAll().where('project_id', '=', projectId);
  return (locked ? q.orderBy('portrait_id').forUpdate() : q).execute();
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
