import { sql } from 'kysely';
import { dialectOf, type Db } from '../db';
import type { ReportFilters, ReportFunnelStep, ReportJson, ReportTiming } from '../../src/domain/reports';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import { whereFilters } from './answer-rows';
import { COUNTED } from '../responses/predicate';

// Drop-off and timing (docs/decisions/reports.md, "Drop-off and timing"): GROUP BYs over the filtered
// respondents, read from indexes alone (018's covering index; on SQLite also 019's, one per grouped
// expression), never the rows and never every respondent into JavaScript: what comes back is bounded
// by questions × statuses, distinct durations in seconds and days. Pure functions shape them with the
// report's per-question "answered".

const DAY_MS = 86_400_000;
const count = sql<string | number>`count(*)`;

export interface DropOffCounts {
  /** Respondents by the question they saw last and their status. */
  last: { question_id: string | null; status: number; n: number }[];
  /** Completed respondents by whole seconds from start to completion. */
  durations: { seconds: number; n: number }[];
  started: { day: number; n: number }[];
  completed: { day: number; n: number }[];
}

/**
 * SQLite: the filters as terms checked on the entries of the index each query names (below), never
 * used to search it: the unary `+` keeps the planner on the project's range, walked in the order of
 * what is grouped. (Left to itself it took the report's covering index for a city or a gender, which
 * lacks the times, or skip-scanned an age range and sorted.)
 */
function sqliteFilters(f: ReportFilters) {
  // The exclusion predicate (server/responses/predicate.ts), checked in the index's entries (020).
  const terms = [sql` and +excluded = ${COUNTED}`];
  if (f.gender !== undefined) terms.push(sql` and +gender = ${f.gender}`);
  if (f.ageMin !== undefined) terms.push(sql` and +age >= ${f.ageMin}`);
  if (f.ageMax !== undefined) terms.push(sql` and +age <= ${f.ageMax}`);
  if (f.city !== undefined) terms.push(sql` and +city = ${f.city}`);
  if (f.education !== undefined) terms.push(sql` and +education = ${f.education}`);
  if (f.portrait !== undefined) terms.push(sql` and +portrait_id = ${f.portrait}`);
  // The language is last in each of these indexes (026).
  if (f.language !== undefined) terms.push(sql` and +language = ${f.language}`);
  return sql.join(terms, sql``);
}

/**
 * Four walks over index ranges and no sort: SQLite groups by sorting whatever passes the filters,
 * and sorting 100 000 computed days and durations was most of the cost (about 75 ms of 100 on
 * 100 000 respondents). Who stopped where walks `respondents_analysis`, ordered by status and
 * question; the days and the durations walk the indexes of migration 019, ordered by the very
 * expressions grouped here (the texts must stay those of the indexes).
 */
export function dropOffSqliteQueries(pid: number, f: ReportFilters) {
  const filters = sqliteFilters(f);
  const done = sql`status = ${RESPONDENT_STATUS.completed} and finished_at is not null`;
  return {
    last: sql<DropOffCounts['last'][number]>`select status, last_question_id as question_id,
      count(*) as n from respondents indexed by respondents_analysis
      where project_id = ${pid}${filters} group by status, last_question_id`,
    durations: sql<DropOffCounts['durations'][number]>`select (finished_at - started_at) / 1000 as seconds,
      count(*) as n from respondents indexed by respondents_duration
      where project_id = ${pid} and ${done}${filters} group by 1`,
    started: sql<DropOffCounts['started'][number]>`select started_at / 86400000 as day, count(*) as n
      from respondents indexed by respondents_start_day where project_id = ${pid}${filters}
      group by 1`,
    completed: sql<DropOffCounts['completed'][number]>`select finished_at / 86400000 as day,
      count(*) as n from respondents indexed by respondents_end_day
      where project_id = ${pid} and ${done}${filters} group by 1`,
  };
}

async function dropOffSqlite(db: Db, pid: number, f: ReportFilters): Promise<DropOffCounts> {
  const q = dropOffSqliteQueries(pid, f);
  const [last, durations, started, completed] = await Promise.all([
    q.last.execute(db),
    q.durations.execute(db),
    q.started.execute(db),
    q.completed.execute(db),
  ]);
  return { last: last.rows, durations: durations.rows, started: started.rows, completed: completed.rows };
}

/**
 * SQLite, few respondents: their rows found once by the filters' own index (whereFilters), kept in a
 * materialized CTE, and grouped four ways, each a sort of no more rows than they are.
 */
async function dropOffFewSqlite(db: Db, pid: number, f: ReportFilters): Promise<DropOffCounts> {
  const people = whereFilters(
    db.selectFrom('respondents').where('respondents.project_id', '=', pid),
    f,
  ).select([
    'respondents.status',
    'respondents.last_question_id',
    'respondents.started_at',
    'respondents.finished_at',
  ]);
  const done = sql`status = ${RESPONDENT_STATUS.completed} and finished_at is not null`;
  const { rows } = await sql<{ part: number; k: number | null; q: string | null; n: number }>`
    with p as materialized ${people}
    select 0 as part, status as k, last_question_id as q, count(*) as n from p group by 2, 3
    union all select 1, (finished_at - started_at) / 1000, null, count(*) from p where ${done} group by 2
    union all select 2, started_at / 86400000, null, count(*) from p group by 2
    union all select 3, finished_at / 86400000, null, count(*) from p where ${done} group by 2`.execute(db);
  const out: DropOffCounts = { last: [], durations: [], started: [], completed: [] };
  for (const r of rows) {
    const k = Number(r.k);
    const n = Number(r.n);
    if (r.part === 0) out.last.push({ question_id: r.q, status: k, n });
    else if (r.part === 1) out.durations.push({ seconds: k, n });
    else (r.part === 2 ? out.started : out.completed).push({ day: k, n });
  }
  return out;
}

/**
 * `few`: the filters leave few respondents (aggregate.ts, population). SQLite then finds them by the
 * filters' own index and groups their rows, where walking the project's whole range four times was
 * the drop-off's cost however few passed (Kazan and ages 25–40, 2 % of 100 000: 4 × 100 000 entries).
 */
export async function dropOffCounts(
  db: Db,
  pid: number,
  f: ReportFilters,
  few = false,
): Promise<DropOffCounts> {
  if (dialectOf(db) === 'sqlite') return few ? dropOffFewSqlite(db, pid, f) : dropOffSqlite(db, pid, f);
  const people = () =>
    whereFilters(db.selectFrom('respondents').where('respondents.project_id', '=', pid), f);
  const completed = () => people().where('respondents.status', '=', RESPONDENT_STATUS.completed);
  // Integer division on both databases (the times are integers: SQLite integer, PostgreSQL bigint).
  const seconds = sql<number>`(respondents.finished_at - respondents.started_at) / 1000`;
  const startDay = sql<number>`respondents.started_at / ${sql.lit(DAY_MS)}`;
  const endDay = sql<number>`respondents.finished_at / ${sql.lit(DAY_MS)}`;
  const [last, durations, started, done] = await Promise.all([
    people()
      .select(['respondents.last_question_id as question_id', 'respondents.status', count.as('n')])
      .groupBy(['respondents.status', 'respondents.last_question_id'])
      .execute(),
    completed()
      .where('respondents.finished_at', 'is not', null)
      .select([seconds.as('seconds'), count.as('n')])
      .groupBy(sql`1`)
      .execute(),
    people()
      .select([startDay.as('day'), count.as('n')])
      .groupBy(sql`1`)
      .execute(),
    completed()
      .where('respondents.finished_at', 'is not', null)
      .select([endDay.as('day'), count.as('n')])
      .groupBy(sql`1`)
      .execute(),
  ]);
  const num = <T extends { n: string | number }>(r: T) => ({ ...r, n: Number(r.n) });
  return {
    last: last.map((r) => ({ question_id: r.question_id, status: Number(r.status), n: Number(r.n) })),
    durations: durations.map(num).map((r) => ({ seconds: Number(r.seconds), n: r.n })),
    started: started.map(num).map((r) => ({ day: Number(r.day), n: r.n })),
    completed: done.map(num).map((r) => ({ day: Number(r.day), n: r.n })),
  };
}

/** The value at 0-based rank k of a distribution sorted by value. */
function atRank(list: { seconds: number; n: number }[], k: number): number {
  let seen = 0;
  for (const d of list) {
    seen += d.n;
    if (seen > k) return d.seconds;
  }
  return list[list.length - 1].seconds;
}

/**
 * Median (the mean of the two middle values for an even count, as the report's numbers) and the 90th
 * percentile by nearest rank (the smallest duration that at least 90 % of completions took no longer
 * than), in whole seconds.
 */
export function timingOf(durations: DropOffCounts['durations']): ReportTiming {
  const list = [...durations].sort((a, b) => a.seconds - b.seconds);
  const total = list.reduce((s, d) => s + d.n, 0);
  if (total === 0) return { completed: 0, medianSeconds: null, p90Seconds: null };
  const median =
    total % 2 === 1
      ? atRank(list, (total - 1) / 2)
      : (atRank(list, total / 2 - 1) + atRank(list, total / 2)) / 2;
  return { completed: total, medianSeconds: median, p90Seconds: atRank(list, Math.ceil(0.9 * total) - 1) };
}

const dayText = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Per day (UTC), respondents who started and who completed, oldest first, days with neither left out. */
export function timelineOf(c: DropOffCounts): ReportJson['timeline'] {
  const days = new Map<number, { started: number; completed: number }>();
  const at = (d: number) => days.get(d) ?? days.set(d, { started: 0, completed: 0 }).get(d)!;
  for (const r of c.started) at(r.day).started += r.n;
  for (const r of c.completed) at(r.day).completed += r.n;
  return [...days]
    .sort((a, b) => a[0] - b[0])
    .map(([day, v]) => ({ day: dayText(day), started: v.started, completed: v.completed }));
}

/**
 * The funnel in questionnaire order: reached = answered + those shown it now (in progress, their
 * last seen question unanswered); leftHere = whose last seen question it is and who never completed
 * (in progress or screened out); screenedOut = those of them the survey turned away there.
 */
export function funnelOf(
  questions: { id: string; answered: number }[],
  last: DropOffCounts['last'],
): ReportFunnelStep[] {
  const of = (id: string, status: number) =>
    last.reduce((s, r) => (r.question_id === id && r.status === status ? s + r.n : s), 0);
  return questions.map((q) => {
    const inProgress = of(q.id, RESPONDENT_STATUS.started);
    const screenedOut = of(q.id, RESPONDENT_STATUS.screenedOut);
    return {
      questionId: q.id,
      reached: q.answered + inProgress,
      answered: q.answered,
      leftHere: inProgress + screenedOut,
      screenedOut,
    };
  });
}
