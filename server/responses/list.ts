import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db';
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
    'respondents.locale',
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
    );
  const desc = q.sort.startsWith('-');
  const by = q.sort.replace(/^-/, '') as SortKey;
  const key = ORDER[by];
  // Only the end can be missing (still answering): those sort last either way. The start and the id
  // are never null, and their order is the index's (no sort of the whole project).
  const nullsLast = by === 'finished' || by === 'duration';
  const direction = desc ? sql`desc` : sql`asc`;
  const [rows, total, rule] = await Promise.all([
    base()
      .leftJoin('games', 'games.id', 'respondents.game_id')
      .select([...rowColumns()])
      // Respondents with no end sort last either way; ties by id in the same direction.
      .$if(nullsLast, (w) => w.orderBy(sql`${key} is null`))
      .orderBy(sql`${key} ${direction}`)
      .orderBy(sql`respondents.id ${direction}`)
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute(),
    base()
      .select(sql<number | string>`count(*)`.as('n'))
      .executeTakeFirstOrThrow(),
    storedRule(db, projectId),
  ]);
  return {
    total: Number(total.n),
    page: q.page,
    pageSize: q.pageSize,
    items: rows.map((r) => listRow(t, r as unknown as ListedRespondent, content, rule, placeName)),
  };
}
