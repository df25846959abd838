import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../db';
import type { Database } from '../db/schema';
import type { ReportFilters } from '../../src/domain/reports';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import type { ExcludedMode } from '../../src/domain/responses';
import { countedAnswers, excludedTerm } from '../responses/predicate';

// The answer rows a report reads: the filters as WHERE clauses on the respondents, and the two ways
// of reaching their answer rows (respondent by respondent for a few, or a scan of the project's rows
// checked against them), shared by the counts (aggregate.ts), the written answers' pages
// (written-answers.ts), the drop-off, the downloads and the respondents' list.

type RespondentsQuery = SelectQueryBuilder<Database, 'respondents', object>;

/**
 * The filters as WHERE clauses on the respondents table, with the exclusion predicate
 * (server/responses/predicate.ts): the respondents every figure counts, unless a list or a download
 * asks for the excluded too (`excluded`).
 */
export function whereFilters<Q extends SelectQueryBuilder<Database, 'respondents', object>>(
  q: Q,
  f: ReportFilters,
  excluded: ExcludedMode = 'none',
): Q {
  let out = q as RespondentsQuery;
  const counted = excludedTerm(excluded);
  if (counted) out = out.where(counted);
  if (f.gender !== undefined) out = out.where('respondents.gender', '=', f.gender);
  if (f.ageMin !== undefined) out = out.where('respondents.age', '>=', f.ageMin);
  if (f.ageMax !== undefined) out = out.where('respondents.age', '<=', f.ageMax);
  if (f.city !== undefined)
    // Every status, said outright: SQLite then finds a city's respondents through the covering
    // index's (project, status, city) prefix, 1 ms at 100 000 respondents, where it otherwise read
    // every respondent of the project from the table (30–60 ms).
    out = out
      .where('respondents.status', 'in', Object.values(RESPONDENT_STATUS))
      .where('respondents.city', '=', f.city);
  if (f.education !== undefined) out = out.where('respondents.education', '=', f.education);
  if (f.portrait !== undefined) out = out.where('respondents.portrait_id', '=', f.portrait);
  if (f.language !== undefined) out = out.where('respondents.language', '=', f.language);
  return out as Q;
}

export function hasFilters(f: ReportFilters): boolean {
  return Object.values(f).some((x) => x !== undefined);
}

/** The respondents of the project matching the filters, as a subquery of ids. */
function respondentIds(db: Db, pid: number, f: ReportFilters) {
  return whereFilters(
    db.selectFrom('respondents').select('respondents.id').where('respondents.project_id', '=', pid),
    f,
  );
}

/**
 * The answer rows (aliased `a`) of the filtered respondents, read respondent by respondent: a join
 * that starts at the respondents. SQLite keeps a CROSS JOIN's order. PostgreSQL's planner, which
 * takes the rows of one respondent for scattered pages, would hash the whole table instead; it
 * runs these queries through onlyNestedLoops.
 */
export function fewAnswersOf(db: Db, pid: number, f: ReportFilters) {
  const people = whereFilters(db.selectFrom('respondents').where('respondents.project_id', '=', pid), f);
  return people
    .crossJoin('respondent_answers as a')
    .whereRef('a.respondent_id', '=', 'respondents.id') as unknown as ReturnType<typeof scanAnswersOf>;
}

/**
 * A PostgreSQL query of the few respondents' rows, with hash and merge joins off for its
 * transaction: the planner then looks each respondent's rows up in the respondent index, in
 * parallel workers. At 100 000 respondents: Kazan and ages 25–40 (2 %) 41 ms where a LATERAL
 * subquery (OFFSET 0, which kept the lookups but not the workers) took 74 ms; Kazan (7 %) 123 ms
 * where the planner's own choice, a hash of every answer row, took 278 ms.
 */
export function onlyNestedLoops<T>(
  db: Db,
  query: (trx: Db) => Promise<T>,
  /** Bitmap scans off too (openAnswers). */
  noBitmaps = false,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_hashjoin = off`.execute(trx);
    await sql`set local enable_mergejoin = off`.execute(trx);
    if (noBitmaps) await sql`set local enable_bitmapscan = off`.execute(trx);
    return query(trx);
  });
}

/**
 * Narrows answer rows (aliased `a`) to the filtered respondents; when nothing filters, to those not
 * excluded (a NOT IN the project's few excluded).
 */
export function scanAnswersOf(db: Db, pid: number, f: ReportFilters) {
  let q = db.selectFrom('respondent_answers as a').where('a.project_id', '=', pid);
  if (!hasFilters(f)) q = q.where(countedAnswers(pid));
  else {
    const ids = respondentIds(db, pid, f);
    // `+a.respondent_id`: no index on the respondent for this term, so SQLite reads the covering
    // index (009) and checks each row against the filtered ids, five times faster at 20 000
    // respondents than looking up every filtered respondent's rows and then each row's columns in
    // the table. PostgreSQL plans the same hashed check either way.
    q = q.where((eb: ExpressionBuilder<Database & { a: Database['respondent_answers'] }, 'a'>) =>
      eb(sql<number>`+a.respondent_id`, 'in', ids),
    );
  }
  return q;
}
