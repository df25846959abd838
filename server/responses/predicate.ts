import { sql, type Expression, type SqlBool } from 'kysely';
import type { ExcludedMode } from '../../src/domain/responses';

// The one predicate behind "an excluded respondent leaves every figure" (issue 31,
// docs/decisions/responses.md). Respondents' queries check `respondents.excluded` (in every covering
// index the report reads, migration 020); queries over answer rows alone check the respondent is not
// among the project's excluded (a short list, read through the partial index respondents_excluded).
// The report's filters (aggregate.ts whereFilters) apply the first; the live GROUP BYs, the open
// answers, the Compare tables and the counters' recount apply the second when they do not join the
// respondents. Erased respondents are excluded too.

/** respondents.excluded of the respondents every figure counts. */
export const COUNTED = 0;
export const EXCLUDED = 1;

/** The respondents a list or a download reads: the counted ones (default), the excluded, or all. */
export function excludedTerm(
  mode: ExcludedMode,
  column = 'respondents.excluded',
): Expression<SqlBool> | null {
  if (mode === 'all') return null;
  return sql<SqlBool>`${sql.ref(column)} = ${mode === 'only' ? EXCLUDED : COUNTED}`;
}

/**
 * Answer rows (`alias.respondent_id`) of respondents who count: not one of the project's excluded.
 * The unary `+` keeps SQLite on the index it picked for the rows (as aggregate.ts's filters do).
 */
export function countedAnswers(projectId: number, alias = 'a'): Expression<SqlBool> {
  return sql<SqlBool>`+${sql.ref(`${alias}.respondent_id`)} not in (select x.id from respondents x
    where x.project_id = ${projectId} and x.excluded = ${EXCLUDED})`;
}
