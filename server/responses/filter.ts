import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../db/schema';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import { filtersOf } from '../../src/domain/reports';
import { FLAG_BITS } from '../../src/domain/quality';
import type { RespondentsFilter } from '../../src/domain/responses';
import { whereFilters } from '../reports/aggregate';
import { PLACE_CATEGORIES } from '../reports/shape';
import type { ProjectContent } from '../../src/domain/content/model';

// The respondents list's filters as WHERE clauses (GET /project/respondents, the exclusion by a
// filter, the list's download): the report's own filters and exclusion predicate (aggregate.ts
// whereFilters, one parser, one predicate), then the list's status, dates, flag and text search.

type Q = SelectQueryBuilder<Database, 'respondents', object>;

const DAY_MS = 86_400_000;
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);
/** "quotaFull" is a screened-out respondent whose state says so (only screened-out rows are read). */
const QUOTA_FULL = sql<boolean>`respondents.state like ${'%"end":"quotaFull"%'}`;

/** `lower(text) like %term%` with the term's wildcards escaped (SQLite's lower() is Unicode, server/db). */
export function containsText(column: string, term: string) {
  const pattern = `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

/** The written answers' questions: every question but the place pickers (whose text is a place id). */
function placeQuestions(content: ProjectContent): string[] {
  const out: string[] = [];
  for (const qn of content.questionnaires)
    for (const b of qn.blocks)
      for (const q of b.questions) if (PLACE_CATEGORIES.includes(q.category)) out.push(q.id);
  return out;
}

/** Narrows a query of the project's respondents to a list filter. */
export function whereListFilter<T extends Q>(
  q: T,
  projectId: number,
  f: RespondentsFilter,
  content: ProjectContent,
): T {
  let out = whereFilters(q as Q, filtersOf(f), f.excluded);
  switch (f.status) {
    case 'inProgress':
      out = out.where('respondents.status', '=', RESPONDENT_STATUS.started);
      break;
    case 'completed':
      out = out.where('respondents.status', '=', RESPONDENT_STATUS.completed);
      break;
    case 'screenedOut':
      out = out
        .where('respondents.status', '=', RESPONDENT_STATUS.screenedOut)
        .where(sql<boolean>`not ${QUOTA_FULL}`);
      break;
    case 'quotaFull':
      out = out.where('respondents.status', '=', RESPONDENT_STATUS.screenedOut).where(QUOTA_FULL);
      break;
  }
  if (f.from !== undefined) out = out.where('respondents.started_at', '>=', dayStart(f.from));
  if (f.to !== undefined) out = out.where('respondents.started_at', '<', dayStart(f.to) + DAY_MS);
  if (f.flag === 'any') out = out.where('respondents.flags', '<>', 0);
  else if (f.flag === 'none') out = out.where('respondents.flags', '=', 0);
  else if (f.flag !== undefined)
    out = out
      .where('respondents.flags', '<>', 0)
      .where(sql<number>`respondents.flags & ${FLAG_BITS[f.flag]}`, '<>', 0);
  if (f.textSearch !== undefined && f.textSearch !== '') {
    const places = placeQuestions(content);
    const term = f.textSearch;
    out = out.where((eb) =>
      eb.exists(
        eb
          .selectFrom('respondent_answers as t')
          .select(sql`1`.as('one'))
          .whereRef('t.respondent_id', '=', 'respondents.id')
          .where('t.project_id', '=', projectId)
          .where('t.text', 'is not', null)
          .$if(places.length > 0, (w) => w.where('t.question_id', 'not in', places))
          .where(containsText('t.text', term)),
      ),
    );
  }
  return out as T;
}
