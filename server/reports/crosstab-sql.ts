import { sql, type QueryCreator, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { dialectOf, type Db } from '../db';
import type { Database } from '../db/schema';
import type { ReportFilters } from '../../src/domain/reports';
import { AGE_BANDS, type CrosstabAttribute } from '../../src/domain/crosstab';
import { hasFilters, whereFilters } from './answer-rows';
import { countedAnswers } from '../responses/predicate';

// The counts of a crosstab, by the database: one GROUP BY over the row dimension and the column
// dimension of the answer rows (aliased `r`) of the row question, joined to the column question's
// rows (`c`) or to the respondent (`respondents`) for an attribute, narrowed by the report's
// filters as the JSON report narrows them (aggregate.ts's whereFilters). What comes back is bounded
// by the two dimensions' distinct values, never by the number of respondents.

/** What the rows group by. */
export type RowDimension =
  /** A choice question's picked answer (statement null); a matrix statement's answer. */
  | { kind: 'answer'; questionId: string; statementId: string | null }
  /** cityAuto, regionAuto: the place's text. */
  | { kind: 'place'; questionId: string }
  /** starRating, slider, nps: the value. */
  | { kind: 'value'; questionId: string };

export type ColDimension =
  { kind: 'question'; questionId: string } | { kind: 'attribute'; name: CrosstabAttribute };

export interface CrossCount {
  row: string | number | null;
  col: string | null;
  n: number;
}

/** The column question's rows, materialized (SQLite). */
type WithC = Database & { c: { respondent_id: number; answer_id: string | null } };

type Rows = SelectQueryBuilder<Database & { r: Database['respondent_answers'] }, 'r', object>;

const ageBand = sql<string | null>`case ${sql.join(
  AGE_BANDS.map(([band, , max]) =>
    max === null
      ? sql`when respondents.age is not null then ${sql.lit(band)}`
      : sql`when respondents.age <= ${sql.lit(max)} then ${sql.lit(band)}`,
  ),
  sql` `,
)} end`;

function colKey(col: ColDimension): RawBuilder<string | null> {
  if (col.kind === 'question') return sql<string | null>`c.answer_id`;
  switch (col.name) {
    case 'gender':
      return sql`respondents.gender`;
    case 'age':
      return ageBand;
    case 'city':
      return sql`respondents.city`;
    case 'education':
      return sql`respondents.education`;
    case 'portrait':
      return sql`respondents.portrait_id`;
    case 'language':
      return sql`respondents.language`;
  }
}

function rowKey(row: RowDimension): RawBuilder<string | number | null> {
  switch (row.kind) {
    case 'answer':
      return sql`r.answer_id`;
    case 'place':
      return sql`r.text`;
    case 'value':
      return sql`r.value`;
  }
}

/**
 * The answer rows of the row question, joined to what the columns need, filtered. A respondent
 * without the column's answer or attribute is not in the table (the base is those who have both).
 */
function crossRows(db: Db, pid: number, f: ReportFilters, row: RowDimension, col: ColDimension): Rows {
  // SQLite joins by nested loops only: joined to the answer table, each row question's row looked
  // the column question's row up through an index and then the table. Read once from the covering
  // index into a materialized table, the column question's rows are found through the automatic
  // index SQLite builds on it (docs/decisions/reports.md). PostgreSQL hash-joins the plain join.
  const materialized = col.kind === 'question' && dialectOf(db) === 'sqlite';
  const from: QueryCreator<WithC> =
    col.kind === 'question' && materialized
      ? db.with(
          (cte) => cte('c').materialized(),
          (w) =>
            w
              .selectFrom('respondent_answers')
              .select(['respondent_id', 'answer_id'])
              .where('project_id', '=', pid)
              .where('question_id', '=', col.questionId)
              .where('statement_id', 'is', null),
        )
      : (db as unknown as QueryCreator<WithC>);
  let q = from
    .selectFrom('respondent_answers as r')
    .where('r.project_id', '=', pid)
    .where('r.question_id', '=', row.questionId) as unknown as Rows;
  if (row.kind === 'answer')
    q =
      row.statementId === null
        ? q.where('r.statement_id', 'is', null)
        : q.where('r.statement_id', '=', row.statementId);
  if (materialized)
    q = (
      q as unknown as SelectQueryBuilder<WithC & { r: Database['respondent_answers'] }, 'r', object>
    ).innerJoin('c', 'c.respondent_id', 'r.respondent_id') as unknown as Rows;
  else if (col.kind === 'question')
    q = q.innerJoin('respondent_answers as c', (j) =>
      j
        .onRef('c.respondent_id', '=', 'r.respondent_id')
        .on('c.project_id', '=', pid)
        .on('c.question_id', '=', col.questionId)
        .on('c.statement_id', 'is', null),
    ) as unknown as Rows;
  if (col.kind === 'attribute' || hasFilters(f)) {
    const joined = q.innerJoin('respondents', 'respondents.id', 'r.respondent_id');
    q = whereFilters(
      joined as unknown as SelectQueryBuilder<Database, 'respondents', object>,
      f,
    ) as unknown as Rows;
  } else q = q.where(countedAnswers(pid, 'r')) as unknown as Rows;
  if (col.kind === 'attribute') q = q.where(colKey(col), 'is not', null);
  return q;
}

const count = sql<string | number>`count(*)`;

/** The table's counts: one GROUP BY over both dimensions. */
export async function crossCounts(
  db: Db,
  pid: number,
  f: ReportFilters,
  row: RowDimension,
  col: ColDimension,
): Promise<CrossCount[]> {
  const rows = await crossRows(db, pid, f, row, col)
    .select([rowKey(row).as('rk'), colKey(col).as('ck'), count.as('n')])
    .groupBy([sql`1`, sql`2`])
    .execute();
  return rows.map((r) => ({
    row: r.rk === null ? null : typeof r.rk === 'string' && row.kind !== 'value' ? r.rk : Number(r.rk),
    col: r.ck === null ? null : String(r.ck),
    n: Number(r.n),
  }));
}

/**
 * Respondents per column, for a question whose respondents write several rows (fewAnswers): there
 * the cells of a column add up past its base.
 */
export async function crossBases(
  db: Db,
  pid: number,
  f: ReportFilters,
  row: RowDimension,
  col: ColDimension,
): Promise<{ col: string | null; n: number }[]> {
  const rows = await crossRows(db, pid, f, row, col)
    .select([colKey(col).as('ck'), sql<string | number>`count(distinct r.respondent_id)`.as('n')])
    .groupBy(sql`1`)
    .execute();
  return rows.map((r) => ({ col: r.ck === null ? null : String(r.ck), n: Number(r.n) }));
}

/**
 * A number question's sums per column: count, Σ(x − shift), Σ(x − shift)² (the shift, a value near
 * the data, keeps the variance from cancelling digits); for fromTo, whose values are not few.
 */
export async function crossSums(
  db: Db,
  pid: number,
  f: ReportFilters,
  questionId: string,
  col: ColDimension,
  shift: number,
): Promise<{ col: string | null; n: number; sum: number; sumSquares: number }[]> {
  const d = sql`(r.value - ${sql.lit(shift)})`;
  const rows = await crossRows(db, pid, f, { kind: 'value', questionId }, col)
    .where('r.value', 'is not', null)
    .select([
      colKey(col).as('ck'),
      count.as('n'),
      sql<string | number>`sum(${d})`.as('s'),
      sql<string | number>`sum(${d} * ${d})`.as('ss'),
    ])
    .groupBy(sql`1`)
    .execute();
  return rows.map((r) => ({
    col: r.ck === null ? null : String(r.ck),
    n: Number(r.n),
    sum: Number(r.s),
    sumSquares: Number(r.ss),
  }));
}
