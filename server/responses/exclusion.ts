import type { FastifyRequest } from 'fastify';
import { PostgresAdapter, sql } from 'kysely';
import { dialectOf, type Db } from '../db';
import { quotas } from '../repos/respondents';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import { ProjectStatus } from '../../src/domain/projects';
import type { ProjectContent } from '../../src/domain/content/model';
import type { ExclusionResult, RespondentsFilter } from '../../src/domain/responses';
import type { User } from '../../src/domain/user';
import { audit } from '../http/audit';
import { counterQuestions } from '../reports/counters';
import { SHIFTED, shiftCounters, whileShifting, type Shifted } from '../reports/counter-shift';
import { finishWhenFull } from '../survey/respond';
import { whereListFilter } from './filter';
import { COUNTED, EXCLUDED } from './predicate';
import type { ExclusionRecord } from './rows';
import { erasedRespondent, notFoundRespondent, nothingMatches, stillAnswering } from './errors';

// Excluding and restoring respondents (POST /project/respondents/exclusion; docs/decisions/responses.md).
// One transaction: the respondents' `excluded` moves (conditionally, so two calls at once change a
// respondent once), the report's counters lose (or get back) exactly those respondents' rows, the
// portrait places of excluded completes are freed while the project runs (reconciliation) and taken
// back on restore when there is room, the project's updated_at moves (a kept final report is made
// again), and the Logs get one entry with who and how many. Respondents still answering cannot be
// excluded (their next answers would count again); erased ones cannot be restored.

/** Projects whose quotas are still filling: an excluded complete's place is given to someone else. */
const RUNNING: readonly number[] = [ProjectStatus.OnRotation, ProjectStatus.Paused];
/** Respondents per UPDATE (a list of parameters). */
const CHUNK = 500;

export interface Candidate {
  id: number;
  status: number;
  portrait_id: string | null;
  excluded: number;
  erased_at: number | null;
  exclusion: string | null;
}

const columns = [
  'respondents.id',
  'respondents.status',
  'respondents.portrait_id',
  'respondents.excluded',
  'respondents.erased_at',
  'respondents.exclusion',
] as const;

/** The respondents named by ids (every one must be the project's) or matched by a filter (at least one). */
export async function targets(
  db: Db,
  projectId: number,
  target: { ids?: number[]; filter?: RespondentsFilter },
  content: ProjectContent,
): Promise<Candidate[]> {
  if (target.ids) {
    const ids = [...new Set(target.ids)];
    const found: Candidate[] = [];
    for (let i = 0; i < ids.length; i += CHUNK)
      found.push(
        ...((await db
          .selectFrom('respondents')
          .select([...columns])
          .where('respondents.project_id', '=', projectId)
          .where('respondents.id', 'in', ids.slice(i, i + CHUNK))
          .execute()) as Candidate[]),
      );
    const known = new Set(found.map((r) => r.id));
    const missing = ids.find((id) => !known.has(id));
    if (missing !== undefined) throw notFoundRespondent(missing);
    return found;
  }
  const found = (await whereListFilter(
    db.selectFrom('respondents').where('respondents.project_id', '=', projectId),
    projectId,
    target.filter!,
    content,
    dialectOf(db),
  )
    .select([...columns])
    .orderBy('respondents.id')
    .execute()) as Candidate[];
  if (found.length === 0) throw nothingMatches();
  return found;
}

/** Updates one group of respondents that share their new exclusion text; answers those it changed. */
async function move(trx: Db, ids: number[], excluded: boolean, exclusion: string | null): Promise<Shifted[]> {
  return trx
    .updateTable('respondents')
    .set({ excluded: excluded ? EXCLUDED : COUNTED, exclusion })
    .where('id', 'in', ids)
    .where('excluded', '=', excluded ? COUNTED : EXCLUDED)
    .$if(!excluded, (q) => q.where('erased_at', 'is', null))
    .returning([...SHIFTED])
    .execute();
}

/**
 * Within a transaction: moves the candidates' exclusion (those not moved meanwhile), their counters
 * and their portrait places. Answers the respondents changed and the places freed or taken back.
 */
export async function moveExclusion(
  trx: Db,
  input: {
    projectId: number;
    wanted: readonly Candidate[];
    excluded: boolean;
    record: Omit<ExclusionRecord, 'freed'> | null;
    content: ProjectContent;
  },
): Promise<{ changed: Shifted[]; places: number }> {
  const { projectId, excluded } = input;
  // PostgreSQL: the quotas first, locked, then the status: a completion's finishWhenFull that holds
  // them has finished the project by the time the status is read, or waits for this to commit.
  if (trx.getExecutor().adapter instanceof PostgresAdapter) await quotas(trx, projectId, true);
  const project = await trx
    .selectFrom('projects')
    .select('status')
    .where('id', '=', projectId)
    .executeTakeFirstOrThrow();
  const frees = RUNNING.includes(project.status);
  // Groups by the portrait place an exclusion frees (or a restore takes back): '' for none.
  const groups = new Map<string, number[]>();
  for (const c of input.wanted) {
    const portrait = excluded
      ? frees && c.status === RESPONDENT_STATUS.completed && c.portrait_id
        ? c.portrait_id
        : ''
      : ((c.exclusion ? (JSON.parse(c.exclusion) as ExclusionRecord).freed : undefined) ?? '');
    const list = groups.get(portrait);
    if (list) list.push(c.id);
    else groups.set(portrait, [c.id]);
  }
  const changed: Shifted[] = [];
  const placesBy = new Map<string, number>();
  for (const [portrait, ids] of groups)
    for (let i = 0; i < ids.length; i += CHUNK) {
      const record: ExclusionRecord | null =
        excluded && input.record ? { ...input.record, ...(portrait ? { freed: portrait } : {}) } : null;
      const moved = await move(trx, ids.slice(i, i + CHUNK), excluded, record && JSON.stringify(record));
      changed.push(...moved);
      if (portrait) placesBy.set(portrait, (placesBy.get(portrait) ?? 0) + moved.length);
    }
  if (changed.length === 0) return { changed, places: 0 };
  await shiftCounters(trx, projectId, counterQuestions(input.content), changed, excluded ? -1 : 1);
  let places = 0;
  for (const [portrait, n] of placesBy) {
    if (n === 0) continue;
    const quota = await trx
      .selectFrom('portrait_quotas')
      .select(['completed', 'target'])
      .where('project_id', '=', projectId)
      .where('portrait_id', '=', portrait)
      .executeTakeFirst();
    if (!quota) continue;
    // Freed: never below 0. Taken back: only where there is room (the quota never overshoots).
    const delta = excluded
      ? Math.min(n, Number(quota.completed))
      : Math.min(n, Math.max(0, Number(quota.target) - Number(quota.completed)));
    if (delta === 0) continue;
    await trx
      .updateTable('portrait_quotas')
      .set({ completed: sql`completed ${sql.raw(excluded ? '-' : '+')} ${delta}` })
      .where('project_id', '=', projectId)
      .where('portrait_id', '=', portrait)
      .execute();
    places += delta;
  }
  return { changed, places };
}

/**
 * Excludes (or restores) the candidates that are not so already. `byIds`: a respondent still
 * answering (or, to restore, erased) is refused by name; by a filter they are passed over.
 */
export async function setExclusion(
  req: FastifyRequest,
  db: Db,
  input: {
    projectId: number;
    candidates: Candidate[];
    byIds: boolean;
    excluded: boolean;
    reason: string;
    user: User;
    content: ProjectContent;
    now?: number;
  },
): Promise<ExclusionResult> {
  const { projectId, excluded, user } = input;
  const now = input.now ?? Date.now();
  const wanted: Candidate[] = [];
  for (const c of input.candidates) {
    if (excluded && c.status === RESPONDENT_STATUS.started && c.erased_at === null) {
      if (input.byIds) throw stillAnswering(c.id);
      continue;
    }
    if (!excluded && c.erased_at !== null) {
      if (input.byIds) throw erasedRespondent(c.id);
      continue;
    }
    if ((c.excluded === EXCLUDED) !== excluded) wanted.push(c);
  }
  const author = { id: user.id, email: user.email, fullname: user.fullname };
  const result = await whileShifting(db, projectId, () =>
    db.transaction().execute(async (trx) => {
      const moved = await moveExclusion(trx, {
        projectId,
        wanted,
        excluded,
        record: excluded ? { reason: input.reason, at: now, author } : null,
        content: input.content,
      });
      if (moved.changed.length === 0) return moved;
      await trx.updateTable('projects').set({ updated_at: now }).where('id', '=', projectId).execute();
      const count = moved.changed.length;
      await audit(
        req,
        excluded
          ? {
              chapter: 'reports',
              message: 'quality.log.excluded',
              params: { id: projectId, count, reason: input.reason },
            }
          : { chapter: 'reports', message: 'quality.log.restored', params: { id: projectId, count } },
        trx,
      );
      return moved;
    }),
  );
  // A restore that filled the last places ends the survey as a completion would.
  if (!excluded && result.places > 0) await finishWhenFull(db, projectId, now);
  return { affected: result.changed.length, quotaPlaces: result.places };
}
