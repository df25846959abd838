import { PostgresAdapter, sql, type RawBuilder } from 'kysely';
import type { Db } from '../db';
import { CITY_KEY, COUNTER_KEY, type CountedPerson, type CounterQuestions } from './counters';
import { placeSql } from './recount';

// The counters (counters.ts) of a set of respondents taken away or given back at once, in the
// transaction that excludes or restores them (issue 31). One grouped INSERT … SELECT per counters
// table over the respondents' answer rows (the recount's GROUP BY, over the respondents named
// instead of the project's all, with the shard each respondent's rows went to) appends each key's
// delta to the counters' deltas tables (migration 020): the counters are their rows plus these, and
// every reader sums both in one statement. Appending is what makes 10 000 respondents take well
// under the 2 s budget: at 100 000 respondents they touch some 160 000 counter keys, and upserting
// those cost 2 s of CPU on SQLite alone. foldCounterDeltas then moves the deltas into the counters
// in small transactions after the exclusion has answered (in key order on PostgreSQL, the lock order
// every counter writer keeps), so they never pile up.
// The respondents come with the columns the counters key them by, as the UPDATE that moved them
// returned them (SQLite: a temporary table it walks in order, each one's answers through their
// index; PostgreSQL: arrays), so their rows are not read again; their answers are read once for both
// tables.

/** A respondent whose counters move, with the columns the counters key them by (as the UPDATE that moves them returns them). */
export type Shifted = CountedPerson;

/** The columns of Shifted, for a RETURNING (or a SELECT) of respondents. */
export const SHIFTED = ['id', 'portrait_id', 'gender', 'education', 'age', 'language', 'city'] as const;

/**
 * The respondents whose counters move, as a relation `r` with their key columns, and its cleanup:
 * their rows are not read again (each read of respondents by these ids was a scan of the table on
 * PostgreSQL, 0.25 s at 100 000 respondents).
 */
async function named(
  db: Db,
  people: readonly Shifted[],
): Promise<{ from: RawBuilder<unknown>; done: () => Promise<void> }> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const col = <K extends keyof Shifted>(k: K) => people.map((p) => p[k]);
    return {
      from: sql`unnest(${col('id')}::int[], ${col('portrait_id')}::text[], ${col('gender')}::text[],
        ${col('education')}::text[], ${col('age')}::int[], ${col('language')}::text[], ${col('city')}::text[])
        as r(id, portrait_id, gender, education, age, language, city)`,
      done: async () => {},
    };
  }
  await sql`create temp table if not exists counter_shift_people (id integer primary key,
    portrait_id text, gender text, education text, age integer, language text, city text)`.execute(db);
  await sql`delete from counter_shift_people`.execute(db);
  for (let i = 0; i < people.length; i += 2000)
    await sql`insert or ignore into counter_shift_people (${refs(SHIFTED)}) values ${sql.join(
      people.slice(i, i + 2000).map((p) => sql`(${sql.join(SHIFTED.map((c) => p[c]))})`),
    )}`.execute(db);
  return {
    from: sql`counter_shift_people r`,
    done: async () => {
      await sql`delete from counter_shift_people`.execute(db);
    },
  };
}

/**
 * The answer rows of the named respondents (`a`, with `r`), each respondent's looked up in their
 * index: PostgreSQL hashed every answer row of the table for it otherwise (a sequential scan of
 * them all), so there the lookup is a LATERAL subquery it cannot flatten (`offset 0`).
 */
const rowsOf = (from: RawBuilder<unknown>, pg: boolean) =>
  pg
    ? sql`${from} cross join lateral (select x.question_id, x.answer_id, x.statement_id, x.value, x.text
        from respondent_answers x where x.respondent_id = r.id offset 0) a`
    : sql`${from} cross join respondent_answers a where a.respondent_id = r.id`;

/**
 * One delta row per answer row of the named respondents (kind 0), and one per respondent and
 * question that takes several rows (kind 1: "answered"): not grouped, because sorting a quarter of a
 * million rows into groups was most of an exclusion's time; the fold groups them a step at a time.
 */
function deltas(
  projectId: number,
  from: RawBuilder<unknown>,
  who: RawBuilder<unknown>,
  questions: CounterQuestions,
  sign: 1 | -1,
  pg: boolean,
) {
  // `offset 0` keeps PostgreSQL from turning the EXISTS into a join: it sorted every answer row of
  // the table for it (5 s at 100 000 respondents) instead of looking up each respondent's in its index.
  const kind1 =
    questions.multiRow.length === 0
      ? sql``
      : sql`union all
        select m.question_id as question_id, 1 as kind, '' as answer_id, '' as statement_id,
          0 as has_value, 0 as value, '' as place, ${who}, ${sql.lit(sign)} as n
        from ${from} cross join (${sql.join(
          questions.multiRow.map((id) => sql`select ${id} as question_id`),
          sql` union all `,
        )}) m
        where exists (select 1 from respondent_answers x
          where x.project_id = ${projectId} and x.question_id = m.question_id and x.respondent_id = r.id
          limit 1 offset 0)`;
  return sql`select a.question_id as question_id, 0 as kind,
      coalesce(a.answer_id, '') as answer_id, coalesce(a.statement_id, '') as statement_id,
      case when a.value is null then 0 else 1 end as has_value, coalesce(a.value, 0) as value,
      ${placeSql(questions.places)} as place, ${who}, ${sql.lit(sign)} as n
    from ${rowsOf(from, pg)}
    ${kind1}`;
}

const refs = (cols: readonly string[]) => sql.join(cols.map((c) => sql.ref(c)));
/** The deltas' columns after the project, and those columns of the delta rows `d`. */
const PERSON_CELLS = COUNTER_KEY.filter((c) => c !== 'project_id');
const CITY_CELLS = CITY_KEY.filter((c) => c !== 'project_id');
/** The city deltas' columns but the shard, which a summed shift writes as 0. */
const CITY_CELLS_UNSHARDED = CITY_CELLS.filter((c) => c !== 'shard');
const d = (cols: readonly string[]) => refs(cols.map((c) => `d.${c}`));

// Both keys' respondent columns at once. Every delta goes to shard 0: the shards spread concurrent answers' upserts over several rows of a
// key (counters.ts), which a fold in key order does not need; the report sums a key over its shards,
// so a key's shard-0 row may go below 0 while its other shards hold the respondents taken away. One
// row per key instead of up to eight is fewer groups to sum and rows to write (the city counters are
// sharded for every respondent).
const BOTH = sql`coalesce(r.portrait_id, '') as portrait_id, coalesce(r.gender, '') as gender,
  coalesce(r.education, '') as education, coalesce(r.age, -1) as age, coalesce(r.language, '') as language,
  0 as shard, r.city as city`;

/**
 * PostgreSQL: the named respondents' rows are read once (materialized) and summed by each table's
 * key before they are written, in one statement: far fewer rows than the answer rows read (each key
 * once, shard 0), and the answers read once for both tables. The sums take some 30 MB, kept in memory for this transaction (work_mem; PostgreSQL's default 4 MB sorted
 * them on disk, 2 s more).
 */
async function shiftSummed(
  db: Db,
  projectId: number,
  questions: CounterQuestions,
  from: RawBuilder<unknown>,
  sign: 1 | -1,
): Promise<void> {
  await sql`set local work_mem = '64MB'`.execute(db);
  // Compiling the plan (JIT) cost some 80 ms of a statement that runs once.
  await sql`set local jit = off`.execute(db);
  await sql`with d as materialized (${deltas(projectId, from, BOTH, questions, sign, true)}),
    person as (
      insert into report_count_deltas (${refs(COUNTER_KEY)}, n)
      select cast(${projectId} as integer), ${d(PERSON_CELLS)}, sum(d.n) from d
      group by ${d(PERSON_CELLS)} having sum(d.n) <> 0
    )
    insert into report_city_count_deltas (${refs(CITY_KEY)}, n)
    select cast(${projectId} as integer), ${d(CITY_CELLS_UNSHARDED)}, 0, sum(d.n) from d
    where d.city is not null
    group by ${d(CITY_CELLS_UNSHARDED)} having sum(d.n) <> 0`.execute(db);
}

/**
 * SQLite: the named respondents' rows are read once into a temporary table (no index, appended in
 * the order read) and copied from it into both deltas tables as they are, not summed: SQLite sums by
 * sorting, which cost more than writing the rows.
 */
async function shiftRows(
  db: Db,
  projectId: number,
  questions: CounterQuestions,
  from: RawBuilder<unknown>,
  sign: 1 | -1,
): Promise<void> {
  await sql`drop table if exists temp.counter_shift_rows`.execute(db);
  await sql`create temp table counter_shift_rows as ${deltas(projectId, from, BOTH, questions, sign, false)}`.execute(
    db,
  );
  await sql`insert into report_count_deltas (${refs(COUNTER_KEY)}, n)
    select cast(${projectId} as integer), ${d(PERSON_CELLS)}, d.n from counter_shift_rows d`.execute(db);
  await sql`insert into report_city_count_deltas (${refs(CITY_KEY)}, n)
    select cast(${projectId} as integer), ${d(CITY_CELLS)}, d.n from counter_shift_rows d
    where d.city is not null`.execute(db);
  await sql`drop table temp.counter_shift_rows`.execute(db);
}

/**
 * Takes (sign −1) or gives back (+1) the counters of these respondents' answer rows. Run it in the
 * transaction that changes their `excluded`, for exactly the respondents that change.
 */
export async function shiftCounters(
  db: Db,
  projectId: number,
  questions: CounterQuestions,
  people: readonly Shifted[],
  sign: 1 | -1,
): Promise<void> {
  if (people.length === 0) return;
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const { from, done } = await named(db, people);
  if (pg) await shiftSummed(db, projectId, questions, from, sign);
  else await shiftRows(db, projectId, questions, from, sign);
  await done();
}

/**
 * Moves a project's counter deltas into the counters, one question a transaction (its rows summed
 * by key: a few thousand upserts, some tens of milliseconds), until none are left. The counters plus
 * the deltas are the same count at every commit. Safe to run from several processes at once (a
 * second fold of the same rows waits for the first and then finds them gone) and again after a crash.
 */
export async function foldCounterDeltas(db: Db, projectId: number): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const [deltaTable, table, key] of [
    ['report_count_deltas', 'report_counts', COUNTER_KEY],
    ['report_city_count_deltas', 'report_city_counts', CITY_KEY],
  ] as const) {
    const questions = await db
      .selectFrom(deltaTable)
      .select('question_id')
      .distinct()
      .where('project_id', '=', projectId)
      .execute();
    for (const { question_id: questionId } of questions) {
      await shiftsDone(db, projectId);
      await db
        .transaction()
        .execute((trx) => foldQuestion(trx, pg, deltaTable, table, key, projectId, questionId));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

type DeltaTable = 'report_count_deltas' | 'report_city_count_deltas';
type CounterTable = 'report_counts' | 'report_city_counts';

/** One question's deltas summed into the counters and deleted, in one transaction. */
async function foldQuestion(
  trx: Db,
  pg: boolean,
  deltaTable: DeltaTable,
  table: CounterTable,
  key: readonly string[],
  projectId: number,
  questionId: string,
): Promise<void> {
  const cols = refs(key);
  const upsert = (rows: RawBuilder<unknown>) => sql`insert into ${sql.table(table)} (${cols}, n)
    select ${cols}, sum(n) from ${rows} group by ${cols} having sum(n) <> 0
    ${pg ? sql`order by ${cols}` : sql``}
    on conflict (${cols}) do update set n = ${sql.ref(`${table}.n`)} + excluded.n`;
  if (pg) {
    // One statement: the rows deleted are exactly the rows summed (those of this snapshot).
    await sql`with moved as (
        delete from ${sql.table(deltaTable)} where project_id = ${projectId} and question_id = ${questionId}
        returning ${cols}, n
      ), added as (${upsert(sql`moved`)})
      select 1`.execute(trx);
    return;
  }
  // SQLite: no other writer while this transaction runs.
  const mine = sql`${sql.table(deltaTable)} where project_id = ${projectId} and question_id = ${questionId}`;
  await upsert(sql`(select ${cols}, n from ${mine}) d`).execute(trx);
  await sql`delete from ${mine}`.execute(trx);
}

const folding = new WeakMap<Db, Map<number, Promise<void>>>();
const shifting = new WeakMap<Db, Map<number, Set<Promise<unknown>>>>();

/**
 * Runs an exclusion's (or a restore's) transaction for a project. A fold of that project in this
 * process waits for it before its next step: folding the last exclusion's deltas is seconds of work
 * on PostgreSQL at 100 000 respondents, and an "undo" right after an exclusion ran beside it, on the
 * same cores, in the user's request. Only the speed is at stake: the deltas are counted wherever
 * they are, folded or not.
 */
export async function whileShifting<T>(db: Db, projectId: number, work: () => Promise<T>): Promise<T> {
  let map = shifting.get(db);
  if (!map) shifting.set(db, (map = new Map()));
  let running = map.get(projectId);
  if (!running) map.set(projectId, (running = new Set()));
  const done = work();
  running.add(done);
  try {
    return await done;
  } finally {
    running.delete(done);
    if (running.size === 0 && map.get(projectId) === running) map.delete(projectId);
  }
}

/** Waits until no exclusion of the project is running in this process. */
async function shiftsDone(db: Db, projectId: number): Promise<void> {
  for (;;) {
    const running = shifting.get(db)?.get(projectId);
    if (!running || running.size === 0) return;
    await Promise.allSettled([...running]);
  }
}

/**
 * Folds a project's deltas in the background (after an exclusion has answered: `after`); one fold per project
 * at a time in this process, a later call waiting for the running one and folding what is left.
 * Failures are logged: the deltas stay, still counted, and the next fold takes them.
 */
export function foldLater(
  db: Db,
  projectId: number,
  log: (err: unknown) => void,
  /** Starts only once this settles (the caller's answer sent), yet counts as running for foldsDone. */
  after: Promise<unknown> = Promise.resolve(),
): Promise<void> {
  let map = folding.get(db);
  if (!map) folding.set(db, (map = new Map()));
  const before = map.get(projectId) ?? Promise.resolve();
  const run: Promise<void> = Promise.all([before, after])
    .then(() => foldCounterDeltas(db, projectId))
    .catch(log)
    .finally(() => {
      if (map.get(projectId) === run) map.delete(projectId);
    });
  map.set(projectId, run);
  return run;
}

/** foldLeftovers running, by database: its first query is not yet a fold of `folding`. */
const leftovers = new WeakMap<Db, Promise<void>>();

/** Every project's deltas left by a process that stopped before folding them. Failures are logged. */
export function foldLeftovers(db: Db, log: (err: unknown) => void): Promise<void> {
  const run = (async () => {
    const projects = await db
      .selectFrom('report_count_deltas')
      .select('project_id')
      .distinct()
      .union(db.selectFrom('report_city_count_deltas').select('project_id').distinct())
      .execute();
    for (const p of projects) await foldLater(db, p.project_id, log);
  })().catch(log);
  leftovers.set(db, run);
  return run;
}

/**
 * The folds running now, the leftovers' search included (the server waits for them before it
 * closes the database: one closed right after it started destroyed the database under that search).
 */
export async function foldsDone(db: Db): Promise<void> {
  await leftovers.get(db);
  await Promise.all([...(folding.get(db)?.values() ?? [])]);
}
