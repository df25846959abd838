import { sql, type SelectQueryBuilder } from 'kysely';
import type { Dialect } from '../db';
import type { Database } from '../db/schema';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import { filtersOf } from '../../src/domain/reports';
import { FLAG_BITS } from '../../src/domain/quality';
import type { RespondentsFilter } from '../../src/domain/responses';
import { whereFilters } from '../reports/answer-rows';
import { CHOICE } from '../reports/shape';
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

/**
 * SQLite: answer rows `t` whose folded text holds the folded term's trigrams in a row (FTS5's
 * trigram table respondent_texts, migration 025), a superset of the rows that contain the term.
 * Null for a term under three characters, which has no trigram: those rows are all read.
 */
function trigramCandidates(term: string) {
  const folded = term.toLowerCase();
  if ([...folded].length < 3) return null;
  const phrase = `"${folded.replace(/"/g, '""')}"`;
  return sql<boolean>`t.id in (select rowid from respondent_texts where respondent_texts match ${phrase})`;
}

/** The questions whose rows hold written answers: open questions and choices that offer "Other". */
function writtenQuestions(content: ProjectContent): string[] {
  const out: string[] = [];
  for (const qn of content.questionnaires)
    for (const b of qn.blocks)
      for (const q of b.questions)
        if (q.category === 'open' || (CHOICE.includes(q.category) && q.other !== null)) out.push(q.id);
  return out;
}

/** Narrows a query of the project's respondents to a list filter. */
export function whereListFilter<T extends Q>(
  q: T,
  projectId: number,
  f: RespondentsFilter,
  content: ProjectContent,
  dialect: Dialect | undefined,
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
    // The respondents whose written answers contain it, found from the answers' side: those rows
    // only, each checked once, whatever the list's order. The trigram index (025) narrows the rows
    // to those holding the term's trigrams; the LIKE decides, so matches are exactly the substring's.
    const written = writtenQuestions(content);
    const term = f.textSearch;
    const trigrams = dialect === 'sqlite' ? trigramCandidates(term) : null;
    out =
      written.length === 0
        ? out.where(sql<boolean>`1 = 0`)
        : out.where('respondents.id', 'in', (eb) =>
            eb
              .selectFrom('respondent_answers as t')
              .select('t.respondent_id')
              .$if(trigrams !== null, (w) => w.where(trigrams!))
              .where('t.project_id', '=', projectId)
              .where('t.question_id', 'in', written)
              .where('t.text', 'is not', null)
              .where(containsText('t.text', term)),
          );
  }
  return out as T;
}
