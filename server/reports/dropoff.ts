import { sql } from 'kysely';
import { dialectOf, type Db } from '../db';
import type { ReportFilters, ReportFunnelStep, ReportJson, ReportTiming } from '../../src/domain/reports';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import { whereFilters } from './aggregate';

// Drop-off and timing (docs/decisions/reports.md, "Drop-off and timing"): three GROUP BYs over the
// filtered respondents, read from the covering index of migration 018 (never the rows, never every
// respondent into JavaScript: what comes back is bounded by questions × statuses, distinct durations
// in seconds and days). A pure function shapes them with the report's per-question "answered".

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
 * SQLite: the filters as terms on the respondents of `INDEXED BY respondents_analysis` (below). Its
 * planner otherwise took the report's covering index for a city or a gender, which lacks the last
 * question and the times, and read every respondent's row for them.
 */
function sqliteTerms(pid: number, f: ReportFilters) {
  const terms = [sql`project_id = ${pid}`];
  if (f.gender !== undefined) terms.push(sql`gender = ${f.gender}`);
  if (f.ageMin !== undefined) terms.push(sql`age >= ${f.ageMin}`);
  if (f.ageMax !== undefined) terms.push(sql`age <= ${f.ageMax}`);
  if (f.city !== undefined) terms.push(sql`city = ${f.city}`);
  if (f.education !== undefined) terms.push(sql`education = ${f.education}`);
  if (f.portrait !== undefined) terms.push(sql`portrait_id = ${f.portrait}`);
  return sql.join(terms, sql` and `);
}

async function dropOffSqlite(db: Db, pid: number, f: ReportFilters) {
  const from = sql`respondents indexed by respondents_analysis`;
  const where = sqliteTerms(pid, f);
  const done = sql`status = ${RESPONDENT_STATUS.completed} and finished_at is not null`;
  type N = { n: number };
  // Two passes over the index instead of four: who stopped where together with the day they
  // started (summed apart below), and the completions' durations together with their day.
  const [byStart, byEnd] = await Promise.all([
    sql<N & { status: number; question_id: string | null; day: number }>`select status,
      last_question_id as question_id, started_at / ${sql.lit(DAY_MS)} as day, count(*) as n
      from ${from} where ${where} group by status, last_question_id, 3`.execute(db),
    sql<N & { seconds: number; day: number }>`select (finished_at - started_at) / 1000 as seconds,
      finished_at / ${sql.lit(DAY_MS)} as day, count(*) as n
      from ${from} where ${where} and ${done} group by 1, 2`.execute(db),
  ]);
  const sum = <K>(rows: (N & Record<string, unknown>)[], key: (r: N & Record<string, unknown>) => K) => {
    const m = new Map<unknown, { k: K; n: number }>();
    for (const r of rows) {
      const k = key(r);
      const id = typeof k === 'object' ? JSON.stringify(k) : k;
      const e = m.get(id);
      if (e) e.n += Number(r.n);
      else m.set(id, { k, n: Number(r.n) });
    }
    return [...m.values()];
  };
  const last = sum(byStart.rows, (r) => [Number(r.status), r.question_id as string | null] as const).map(
    ({ k, n }) => ({ status: k[0], question_id: k[1], n }),
  );
  const started = sum(byStart.rows, (r) => Number(r.day)).map(({ k, n }) => ({ day: k, n }));
  const durations = sum(byEnd.rows, (r) => Number(r.seconds)).map(({ k, n }) => ({ seconds: k, n }));
  const completed = sum(byEnd.rows, (r) => Number(r.day)).map(({ k, n }) => ({ day: k, n }));
  return { last, durations, started, completed };
}

export async function dropOffCounts(db: Db, pid: number, f: ReportFilters): Promise<DropOffCounts> {
  if (dialectOf(db) === 'sqlite') {
    const r = await dropOffSqlite(db, pid, f);
    return {
      last: r.last.map((x) => ({ question_id: x.question_id, status: Number(x.status), n: Number(x.n) })),
      durations: r.durations.map((x) => ({ seconds: Number(x.seconds), n: Number(x.n) })),
      started: r.started.map((x) => ({ day: Number(x.day), n: Number(x.n) })),
      completed: r.completed.map((x) => ({ day: Number(x.day), n: Number(x.n) })),
    };
  }
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
