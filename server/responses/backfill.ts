import type { Db } from '../db';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import type { ProjectContent } from '../../src/domain/content/model';
import type { ReplyEntry } from '../../src/domain/flow';
import { answerFlags, flagBits } from '../../src/domain/quality';
import type { QualityFlagParams } from '../../src/domain/responses';
import { answeredPages } from './completion';
import { refreshSpeeders } from './speeders';

// Flags for respondents who completed before migration 020 (or were written in bulk by tests and
// benchmarks): every completed respondent of a project judged again from their stored replies, in
// pages that give the event loop a turn, duplicates found in one ordered read of the game players'
// completions, and the speeder rule taken. Runs once per project (project_quality.judged), on the
// first read that needs the flags; readers arriving meanwhile wait for the same run.

const PAGE = 500;
const running = new WeakMap<Db, Map<number, Promise<void>>>();

/** Judges the project's respondents unless that was done (or was never needed). */
export async function ensureJudged(db: Db, projectId: number, content: ProjectContent): Promise<void> {
  const row = await db
    .selectFrom('project_quality')
    .select('judged')
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  if (!row || Number(row.judged) === 1) return;
  let map = running.get(db);
  if (!map) running.set(db, (map = new Map()));
  let run = map.get(projectId);
  if (!run) {
    run = judgeProject(db, projectId, content).finally(() => map.delete(projectId));
    map.set(projectId, run);
  }
  return run;
}

/** Every completed respondent's flags again, and the speeder rule; marks the project judged. */
export async function judgeProject(db: Db, projectId: number, content: ProjectContent): Promise<void> {
  const duplicates = await duplicatePlayers(db, projectId);
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('respondents')
      .select(['id', 'state'])
      .where('project_id', '=', projectId)
      .where('status', '=', RESPONDENT_STATUS.completed)
      .where('erased_at', 'is', null)
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    if (rows.length === 0) break;
    const byFlags = new Map<string, { flags: number; params: string | null; ids: number[] }>();
    for (const r of rows) {
      const replies = (JSON.parse(r.state || '{}') as { replies?: ReplyEntry[] }).replies ?? [];
      const flags: QualityFlagParams[] = answerFlags(answeredPages(content, replies));
      const dup = duplicates.get(r.id);
      if (dup !== undefined) flags.push({ name: 'duplicate', by: 'player', firstId: dup });
      const params = Object.fromEntries(flags.map((f) => [f.name, f]));
      const key = JSON.stringify(params);
      const group = byFlags.get(key);
      if (group) group.ids.push(r.id);
      else
        byFlags.set(key, {
          flags: flagBits(flags),
          params: flags.length > 0 ? key : null,
          ids: [r.id],
        });
    }
    for (const g of byFlags.values())
      await db
        .updateTable('respondents')
        .set({ flags: g.flags, flag_params: g.params })
        .where('id', 'in', g.ids)
        .execute();
    after = rows[rows.length - 1].id;
    await new Promise((resolve) => setImmediate(resolve));
  }
  // The speeder bits from the rule (the bits just written have none).
  await refreshSpeeders(db, projectId);
  await db.updateTable('project_quality').set({ judged: 1 }).where('project_id', '=', projectId).execute();
}

/** The game players' second and later completions: respondent id → the first completion's id. */
async function duplicatePlayers(db: Db, projectId: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('respondents')
    .select(['id', 'game_id', 'player_id'])
    .where('project_id', '=', projectId)
    .where('status', '=', RESPONDENT_STATUS.completed)
    .where('game_id', 'is not', null)
    .where('player_id', 'is not', null)
    .orderBy('game_id')
    .orderBy('player_id')
    .orderBy('finished_at')
    .orderBy('id')
    .execute();
  const out = new Map<number, number>();
  let key = '';
  let first = 0;
  for (const r of rows) {
    const k = `${r.game_id}\u0001${r.player_id}`;
    if (k !== key) {
      key = k;
      first = r.id;
    } else out.set(r.id, first);
  }
  return out;
}
