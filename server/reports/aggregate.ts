import { PostgresAdapter, sql } from 'kysely';
import type { Db } from '../db';
import type { ReportFilters } from '../../src/domain/reports';
import { countersServe, readCounters } from './counter-reads';
import { fewAnswersOf, hasFilters, onlyNestedLoops, scanAnswersOf, whereFilters } from './answer-rows';

// The numbers of a report, counted by the database (DESIGN.md 8). The answers' counts come from
// the counters kept at write time (counters.ts: keyed by portrait, gender, education and age, and
// per city by portrait, gender and education) unless a city is filtered with an age range; then from
// GROUP BY queries over the answer rows narrowed by the filters as WHERE clauses. The respondents'
// own counts are always a GROUP BY over the project's respondent rows. No query ever brings every
// row into JavaScript; what comes back is bounded by the questionnaire's size (questions × answers
// × distinct values), not by the number of respondents. The open answers are the one list, and it
// comes one page at a time (written-answers.ts).
//
// Every respondent who matches the filters counts, whatever his status: a partly filled survey
// still answered the questions it reached (docs/decisions/reports.md).

export interface StatusCount {
  status: number;
  n: number;
}
/** One group of answer rows: a choice, a matrix cell, a rank of an answer, or a number. */
export interface Cell {
  question_id: string;
  answer_id: string | null;
  statement_id: string | null;
  value: number | null;
  n: number;
}
export interface TextCount {
  question_id: string;
  text: string;
  n: number;
}
export interface Aggregates {
  statuses: StatusCount[];
  cells: Cell[];
  /** Respondents with any answer, per question (only for questions that take several rows). */
  answered: { question_id: string; n: number }[];
  /** The places picked in cityAuto and regionAuto questions. */
  places: TextCount[];
  cities: { name: string; n: number }[];
  regions: { name: string; n: number }[];
  quotas: { portrait_id: string; target: number; completed: number }[];
}

/**
 * Below this share of the project's respondents, the filtered respondents' rows are read one
 * respondent at a time through the respondent index; above it, every answer row of the project is
 * read and checked against them. At 100 000 respondents, SQLite: a city with 7 % of them took 170 ms
 * the first way and 280 ms the second, Moscow with 41 % 2 000 against 400 ms; PostgreSQL (with
 * onlyNestedLoops): Moscow and ages 25–40 (13 %) 215 against 330 ms, Moscow and ages up to 40
 * (35 %) 560 against 440 ms. The crossings lie between.
 */
const FEW_RESPONDENTS = { sqlite: 0.12, postgres: 0.2 };

const count = sql<string | number>`count(*)`;

type Questions = { multiRow: string[]; places: string[] };

/** The answer counts by a GROUP BY over the answer rows of the filtered respondents. */
async function groupAnswers(db: Db, pid: number, f: ReportFilters, questions: Questions, few: boolean) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  if (few || pg) {
    // The rows come from the table (the respondents' rows one by one, or PostgreSQL's parallel
    // scan), so the places' texts cost nothing more: one GROUP BY gives the cells and the places.
    const plan = <T>(query: (d: Db) => Promise<T>) => (few && pg ? onlyNestedLoops(db, query) : query(db));
    // Side by side (PostgreSQL: on two connections).
    const [rows, answered] = await Promise.all([
      few
        ? plan((d) => cellsAndPlaces(fewAnswersOf(d, pid, f), questions))
        : cellsAndPlacesPg(db, pid, f, questions),
      plan((d) =>
        few && !pg
          ? answeredOfFew(d, pid, f, questions)
          : answeredCounts(d, pid, f, questions, few ? fewAnswersOf : scanAnswersOf),
      ),
    ]);
    return { ...splitPlaces(rows), answered };
  }
  // SQLite's scan reads the covering index, which has no text: the places are a query of their own
  // over the place questions' rows only.
  const [cells, answered, places] = await Promise.all([
    scanAnswersOf(db, pid, f)
      .select(['a.question_id', 'a.answer_id', 'a.statement_id', 'a.value', count.as('n')])
      .groupBy(['a.question_id', 'a.answer_id', 'a.statement_id', 'a.value'])
      .execute(),
    answeredCounts(db, pid, f, questions, scanAnswersOf),
    questions.places.length === 0
      ? Promise.resolve([])
      : scanAnswersOf(db, pid, f)
          .where('a.question_id', 'in', questions.places)
          .where('a.text', 'is not', null)
          .select(['a.question_id', 'a.text', count.as('n')])
          .groupBy(['a.question_id', 'a.text'])
          .execute(),
  ]);
  return {
    cells: cells.map((r) => ({
      question_id: r.question_id,
      answer_id: r.answer_id,
      statement_id: r.statement_id,
      value: r.value === null ? null : Number(r.value),
      n: Number(r.n),
    })),
    answered,
    places: places.map((r) => ({ question_id: r.question_id, text: r.text ?? '', n: Number(r.n) })),
  };
}

/** Respondents with any answer, per question that takes several rows (a DISTINCT there). */
async function answeredCounts(
  db: Db,
  pid: number,
  f: ReportFilters,
  questions: Questions,
  answersOf: typeof scanAnswersOf,
) {
  if (questions.multiRow.length === 0) return [];
  const rows = await answersOf(db, pid, f)
    .where('a.question_id', 'in', questions.multiRow)
    .select(['a.question_id', sql<string | number>`count(distinct a.respondent_id)`.as('n')])
    .groupBy('a.question_id')
    .execute();
  return rows.map((r) => ({ question_id: r.question_id, n: Number(r.n) }));
}

/**
 * The same counts for a few respondents: one lookup per respondent and question in the respondent
 * index (respondent, question), which holds both, where the DISTINCT over their rows read and sorted
 * every row of theirs (most of the fixed cost of Kazan and ages 25–40's report). SQLite only:
 * PostgreSQL planned the EXISTS as a scan per pair (6 s there; its DISTINCT over the rows is cheap).
 */
async function answeredOfFew(db: Db, pid: number, f: ReportFilters, questions: Questions) {
  if (questions.multiRow.length === 0) return [];
  const people = whereFilters(
    db.selectFrom('respondents').select('respondents.id').where('respondents.project_id', '=', pid),
    f,
  );
  const asked = sql.join(
    questions.multiRow.map((id) => sql`select ${id} as question_id`),
    sql` union all `,
  );
  const { rows } = await sql<{ question_id: string; n: string | number }>`select m.question_id,
      count(*) as n from (${asked}) m cross join ${people} as p
    where exists (select 1 from respondent_answers x
      where x.respondent_id = p.id and x.question_id = m.question_id)
    group by m.question_id`.execute(db);
  return rows.map((r) => ({ question_id: r.question_id, n: Number(r.n) }));
}

/** The text of a place question's row, null for every other question. */
const placeOf = (places: string[]) =>
  places.length === 0
    ? sql<string | null>`null`
    : sql<string | null>`case when a.question_id in (${sql.join(places)}) then a.text end`;

type CellPlaceRow = {
  question_id: string;
  answer_id: string | null;
  statement_id: string | null;
  value: number | string | null;
  place: string | null;
  n: string | number;
};

/** Cells and places in one GROUP BY over answer rows aliased `a`. */
function cellsAndPlaces(
  rows: ReturnType<typeof scanAnswersOf>,
  questions: Questions,
): Promise<CellPlaceRow[]> {
  return rows
    .select([
      'a.question_id',
      'a.answer_id',
      'a.statement_id',
      'a.value',
      placeOf(questions.places).as('place'),
      count.as('n'),
    ])
    .groupBy([sql`1`, sql`2`, sql`3`, sql`4`, sql`5`])
    .execute();
}

/**
 * PostgreSQL's scan path: a parallel scan of the table joined to the filtered respondents, as the
 * hand-written query does. With the default 4 MB of work memory the planner, which overestimates
 * the groups (it multiplies the four columns' distinct values), sorted the 1.1 million rows on
 * disk instead of hashing them into ~150 groups; the report's transaction gives its queries 64 MB
 * (on a connection of its own, beside the answered counts).
 */
function cellsAndPlacesPg(db: Db, pid: number, f: ReportFilters, questions: Questions) {
  return db.transaction().execute(async (trx) => {
    await sql`set local work_mem = '64MB'`.execute(trx);
    return cellsAndPlaces(scanAnswersOf(trx, pid, f), questions);
  });
}

/** Rows grouped by cell and place into the cells (summed over places) and the places. */
function splitPlaces(rows: CellPlaceRow[]): { cells: Cell[]; places: TextCount[] } {
  const cells = new Map<string, Cell>();
  const places: TextCount[] = [];
  for (const r of rows) {
    const value = r.value === null ? null : Number(r.value);
    const k = [r.question_id, r.answer_id, r.statement_id, value].join('\u0001');
    const cell = cells.get(k);
    if (cell) cell.n += Number(r.n);
    else
      cells.set(k, {
        question_id: r.question_id,
        answer_id: r.answer_id,
        statement_id: r.statement_id,
        value,
        n: Number(r.n),
      });
    if (r.place !== null) places.push({ question_id: r.question_id, text: r.place, n: Number(r.n) });
  }
  return { cells: [...cells.values()], places };
}

/**
 * From this many respondents a report's or a crosstab's JSON waits for a download thread to start
 * when none is ready (download-threads.ts `json`). Below it, it is made on the server's thread
 * meanwhile: at 10 000 respondents a whole SQLite report took 21–49 ms (Moscow with ages 25–40 the
 * longest), within the 50 ms a request may hold the loop; at 100 000 it held it for 209 ms.
 */
const LARGE_REPORT = 10_000;

/** Whether the project has LARGE_REPORT respondents or more (one count through its index). */
export async function reportIsLarge(db: Db, pid: number): Promise<boolean> {
  return (await respondentCount(db, pid)) >= LARGE_REPORT;
}

async function respondentCount(db: Db, pid: number): Promise<number> {
  const row = await db
    .selectFrom('respondents')
    .select(count.as('n'))
    .where('project_id', '=', pid)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

type PeopleRow = { status: number; city: string | null; region: string | null; n: string | number };

/**
 * The filtered respondents grouped by status, city and region (the report's own counts), and whether
 * they are few (FEW_RESPONDENTS): then every part that reads their rows, the answers' GROUP BY, the
 * written answers' pages and SQLite's drop-off, starts from them instead of walking the project's.
 */
export interface Population {
  people: PeopleRow[];
  few: boolean;
}

export async function population(db: Db, pid: number, f: ReportFilters): Promise<Population> {
  const people = whereFilters(db.selectFrom('respondents').where('respondents.project_id', '=', pid), f)
    .select(['respondents.status', 'respondents.city', 'respondents.region', count.as('n')])
    .groupBy(['respondents.status', 'respondents.city', 'respondents.region'])
    .execute();
  if (!hasFilters(f)) return { people: await people, few: false };
  const [rows, all] = await Promise.all([people, respondentCount(db, pid)]);
  const share = FEW_RESPONDENTS[db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'];
  return { people: rows, few: rows.reduce((s, r) => s + Number(r.n), 0) < all * share };
}

export async function aggregate(
  db: Db,
  pid: number,
  f: ReportFilters,
  questions: Questions,
  counted: Promise<Population> = population(db, pid, f),
): Promise<Aggregates> {
  // The answers' counts come from the counters kept at write time when they can (counters.ts):
  // summing them is bounded by the questionnaire, where a GROUP BY reads every answer row.
  const answersQuery = countersServe(f)
    ? readCounters(db, pid, f, questions)
    : // How many the filters leave decides how their answer rows are read (FEW_RESPONDENTS).
      counted.then((c) => groupAnswers(db, pid, f, questions, c.few));
  const [{ people }, answers, quotas] = await Promise.all([
    counted,
    answersQuery,
    db
      .selectFrom('portrait_quotas')
      .select(['portrait_id', 'target', 'completed'])
      .where('project_id', '=', pid)
      .execute(),
  ]);
  const sum = (key: (r: (typeof people)[number]) => string | number | null) => {
    const m = new Map<string | number, number>();
    for (const r of people) {
      const k = key(r);
      if (k !== null) m.set(k, (m.get(k) ?? 0) + Number(r.n));
    }
    return [...m];
  };
  return {
    statuses: sum((r) => Number(r.status)).map(([status, n]) => ({ status: Number(status), n })),
    ...answers,
    cities: sum((r) => r.city).map(([name, n]) => ({ name: String(name), n })),
    regions: sum((r) => r.region).map(([name, n]) => ({ name: String(name), n })),
    quotas: quotas.map((r) => ({
      portrait_id: r.portrait_id,
      target: Number(r.target),
      completed: Number(r.completed),
    })),
  };
}
