import { sql, type RawBuilder } from 'kysely';
import { dialectOf, type Db } from '../db';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import type { ProjectContent } from '../../src/domain/content/model';
import type { TranslationFunctions } from '../../src/i18n/i18n-types';
import {
  respondentsFilterOf,
  type RespondentSort,
  type RespondentsPage,
  type RespondentsQuery,
} from '../../src/domain/responses';
import { whereListFilter } from './filter';
import { listRow, type ListedRespondent } from './rows';
import { storedRule } from './speeders';

// GET /project/respondents: one page of a project's respondents and how many match. The page reads
// the few columns a row shows (never the state JSON, most of a row's bytes) in the sort's index
// order (respondents_list for the default, newest first), the count reads the same filters.

type SortKey = Exclude<RespondentSort, `-${string}`>;
/** Up to this many matches, the page is sorted from the filter's matches (see listRespondents). */
const FEW_TO_SORT = 5000;
const ORDER: Record<SortKey, RawBuilder<number>> = {
  started: sql<number>`respondents.started_at`,
  finished: sql<number>`respondents.finished_at`,
  duration: sql<number>`respondents.finished_at - respondents.started_at`,
  id: sql<number>`respondents.id`,
};

/** The columns a row shows (rows.ts ListedRespondent), from respondents left-joined to games. */
export function rowColumns() {
  return [
    'respondents.id',
    'respondents.status',
    sql<number>`case when respondents.status = ${RESPONDENT_STATUS.screenedOut}
      and respondents.state like ${'%"end":"quotaFull"%'} then 1 else 0 end`.as('quota_full'),
    'respondents.source',
    'respondents.game_id',
    'games.name as game_name',
    'respondents.portrait_id',
    'respondents.started_at',
    'respondents.finished_at',
    'respondents.gender',
    'respondents.age',
    'respondents.city',
    'respondents.education',
    'respondents.language',
    'respondents.flags',
    'respondents.flag_params',
    'respondents.exclusion',
    'respondents.erased_at',
  ] as const;
}

export async function listRespondents(
  db: Db,
  projectId: number,
  q: RespondentsQuery,
  content: ProjectContent,
  t: TranslationFunctions,
  placeName: (id: string) => string,
): Promise<RespondentsPage> {
  const filter = respondentsFilterOf(q);
  const base = () =>
    whereListFilter(
      db.selectFrom('respondents').where('respondents.project_id', '=', projectId),
      projectId,
      filter,
      content,
      dialectOf(db),
    );
  const desc = q.sort.startsWith('-');
  const by = q.sort.replace(/^-/, '') as SortKey;
  const direction = desc ? sql`desc` : sql`asc`;
  // Only the end can be missing (still answering): those sort last either way.
  const nullsLast = by === 'finished' || by === 'duration';
  const [total, rule] = await Promise.all([
    base()
      .select(sql<number | string>`count(*)`.as('n'))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n)),
    storedRule(db, projectId),
  ]);
  // Few matches: they are found through the filter's own index and sorted (`+` keeps the planner off
  // the start's index, respondents_list). Many: walking that index in the list's order meets a page
  // of them soon, with no sort of the whole project. (Walking it for a filter that matches a few
  // read every respondent of the project: 450 ms at 100 000.)
  const key = total <= FEW_TO_SORT && !nullsLast ? sql<number>`+${ORDER[by]}` : ORDER[by];
  const rows =
    total === 0 || (q.page - 1) * q.pageSize >= total
      ? []
      : await base()
          .leftJoin('games', 'games.id', 'respondents.game_id')
          .select([...rowColumns()])
          .$if(nullsLast, (w) => w.orderBy(sql`${key} is null`))
          .orderBy(sql`${key} ${direction}`)
          // Ties by id in the same direction.
          .orderBy(sql`${total <= FEW_TO_SORT ? sql`+respondents.id` : sql`respondents.id`} ${direction}`)
          .limit(q.pageSize)
          .offset((q.page - 1) * q.pageSize)
          .execute();
  return {
    total,
    page: q.page,
    pageSize: q.pageSize,
    items: rows.map((r) => listRow(t, r as unknown as ListedRespondent, content, rule, placeName)),
  };
}
