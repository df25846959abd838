import { PostgresAdapter, sql } from 'kysely';
import type { Db } from '../db';
import type { ReportFilters } from '../../src/domain/reports';
import { fewAnswersOf, onlyNestedLoops, scanAnswersOf } from './answer-rows';

// The written answers of a report (open questions' texts, choice questions' "Other" texts): one
// page of each list, searched or not, and a search's total. The report's one kind of list: it comes
// a page at a time, never whole.

const count = sql<string | number>`count(*)`;

/** `lower(a.text) like %term%`: a case-insensitive substring in any script (SQLite's lower() is Unicode, server/db). */
function textMatches(term: string) {
  const pattern = `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`lower(a.text) like ${pattern} escape '\\'`;
}

/**
 * One page of one question's written answers (an open question's texts, or a choice question's
 * "Other" texts: its only rows with a text), oldest first; with `search`, only those containing it.
 */
export async function openAnswers(
  db: Db,
  pid: number,
  f: ReportFilters,
  questionId: string,
  page: number,
  pageSize: number,
  search?: string,
  few = false,
): Promise<Written> {
  const pg = few && db.getExecutor().adapter instanceof PostgresAdapter;
  const read = (d: Db) => {
    let q = (few ? fewAnswersOf(d, pid, f) : scanAnswersOf(d, pid, f))
      .where('a.question_id', '=', questionId)
      .where('a.text', 'is not', null);
    if (search !== undefined) q = q.where(textMatches(search));
    const rows = q.select(['a.id', 'a.respondent_id', 'a.text']);
    // `offset 0` fences the few respondents' rows off from the page's order: PostgreSQL would
    // otherwise walk the primary key for it and look each row's respondent up. (SQLite keeps the
    // CROSS JOIN's order and sorts what it gives.)
    return (pg ? d.selectFrom(rows.offset(0).as('a')).select(['a.id', 'a.respondent_id', 'a.text']) : rows)
      .orderBy('a.id')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute();
  };
  // A few respondents' rows are looked up respondent by respondent (their question's rows through
  // the respondent index) and sorted: walking the question's rows in id order for the filtered ones
  // read, for a rare "Other", half the table on PostgreSQL (the primary key's order) and every text
  // of the question on SQLite, whatever the filter's size. Without a search PostgreSQL is also kept
  // off bitmap scans: since the text search's index (migration 025, partial on `text is not null`)
  // it read that whole index for this query's `text is not null` and looked each row's respondent
  // up instead (Moscow, ages 25–40 at 100 000 respondents: 784–832 ms a page against 545–600).
  const rows = await (pg ? onlyNestedLoops(db, read, search === undefined) : read(db));
  return rows.map((r) => ({ respondentId: Number(r.respondent_id), text: r.text ?? '' }));
}

/** One list of written answers asked for: its question, its page, the search in it if any. */
export interface ListAsked {
  questionId: string;
  page: number;
  search?: string;
}
type Written = { respondentId: number; text: string }[];

/**
 * The pages of several lists of written answers, in the order asked. On PostgreSQL, for a few
 * respondents, the lists without a search are read by one query: each list looked the same
 * respondents up again (one index lookup per respondent and list, 70–90 µs each on a slow machine),
 * so three lists cost three passes over them; a row number per question gives every page from one.
 */
export async function openAnswerLists(
  db: Db,
  pid: number,
  f: ReportFilters,
  lists: ListAsked[],
  pageSize: number,
  few: boolean,
): Promise<Written[]> {
  const pg = few && db.getExecutor().adapter instanceof PostgresAdapter;
  const together = pg ? lists.filter((l) => l.search === undefined) : [];
  const pages = together.length > 1 ? fewPagesTogether(db, pid, f, together, pageSize) : null;
  return Promise.all(
    lists.map(async (l) =>
      pages && l.search === undefined
        ? ((await pages).get(l.questionId) ?? [])
        : openAnswers(db, pid, f, l.questionId, l.page, pageSize, l.search, few),
    ),
  );
}

/** PostgreSQL, a few respondents: several questions' pages (no search) from one read of their rows. */
function fewPagesTogether(
  db: Db,
  pid: number,
  f: ReportFilters,
  lists: ListAsked[],
  pageSize: number,
): Promise<Map<string, Written>> {
  return onlyNestedLoops(
    db,
    async (trx) => {
      const numbered = fewAnswersOf(trx, pid, f)
        .where(
          'a.question_id',
          'in',
          lists.map((l) => l.questionId),
        )
        .where('a.text', 'is not', null)
        .select([
          'a.question_id',
          'a.id',
          'a.respondent_id',
          'a.text',
          sql<number>`row_number() over (partition by a.question_id order by a.id)`.as('rn'),
        ]);
      const wanted = lists.map(
        (l) =>
          sql<boolean>`(t.question_id = ${l.questionId} and t.rn > ${(l.page - 1) * pageSize} and t.rn <= ${l.page * pageSize})`,
      );
      const rows = await trx
        .selectFrom(numbered.as('t'))
        .select(['t.question_id', 't.respondent_id', 't.text'])
        .where(sql<boolean>`(${sql.join(wanted, sql` or `)})`)
        .orderBy('t.question_id')
        .orderBy('t.id')
        .execute();
      const out = new Map<string, Written>();
      for (const r of rows) {
        const list = out.get(r.question_id) ?? [];
        list.push({ respondentId: Number(r.respondent_id), text: r.text ?? '' });
        out.set(r.question_id, list);
      }
      return out;
    },
    true,
  );
}

/** How many of one question's written answers contain `search` (the list's total while searching). */
export async function countTexts(
  db: Db,
  pid: number,
  f: ReportFilters,
  questionId: string,
  search: string,
): Promise<number> {
  const row = await scanAnswersOf(db, pid, f)
    .where('a.question_id', '=', questionId)
    .where('a.text', 'is not', null)
    .where(textMatches(search))
    .select(count.as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
