import type { Db } from '../db';
import { ensureQuotas, newToken, quotas, sha256 } from '../repos/respondents';
import { surveyContent } from './respond';
import { matchesPortrait, type Attributes } from '../../src/domain/flow';
import { ProjectStatus } from '../../src/domain/projects';
import { TARGET_PLATFORMS } from '../../src/domain/lookups';

// The game SDK's path to a survey (DESIGN.md section 8): a player → a project On rotation whose
// portraits still need them → a one-time runner address. Direct-link projects are the researcher's
// own audience and are never handed to games.

export const TICKET_LIFETIME_MS = 24 * 60 * 60 * 1000;

export async function issueTicket(
  db: Db,
  gameId: number,
  player: Attributes & { playerId: string },
  /** The SDK's `locale` for the player (issue 32): kept with the ticket for the runner's language. */
  locale: string | null = null,
  now = Date.now(),
): Promise<{ token: string; expiresAt: number } | null> {
  const projects = await db
    .selectFrom('projects')
    .select(['id', 'template'])
    .where('status', '=', ProjectStatus.OnRotation)
    .where('template', 'not in', ['directLink', 'directLinkAdmin'])
    .orderBy('priority', 'desc')
    .orderBy('id')
    .limit(200)
    .execute();
  const platformId = TARGET_PLATFORMS.find((p) => p.code === player.platform)?.id;
  for (const p of projects) {
    if (platformId !== undefined) {
      const targets = await db
        .selectFrom('project_target_platforms')
        .select('platform_id')
        .where('project_id', '=', p.id)
        .execute();
      if (targets.length > 0 && !targets.some((t) => t.platform_id === platformId)) continue;
    }
    const answered = await db
      .selectFrom('respondents')
      .select('id')
      .where('project_id', '=', p.id)
      .where('game_id', '=', gameId)
      .where('player_id', '=', player.playerId)
      .executeTakeFirst();
    if (answered) continue;
    const content = await surveyContent(db, p.id);
    if (content.questionnaires.length === 0 || content.portraits.length === 0) continue;
    await ensureQuotas(db, p.id, content.portraits);
    const room = new Map((await quotas(db, p.id)).map((q) => [q.portrait_id, q.completed < q.target]));
    const portrait = content.portraits.find((x) => room.get(x.id) && matchesPortrait(x, player));
    if (!portrait) continue;
    const token = newToken();
    const expiresAt = now + TICKET_LIFETIME_MS;
    await db
      .insertInto('survey_tickets')
      .values({
        token_hash: sha256(token),
        project_id: p.id,
        game_id: gameId,
        portrait_id: portrait.id,
        player: JSON.stringify(player),
        created_at: now,
        expires_at: expiresAt,
        used_at: null,
        locale,
      })
      .execute();
    return { token, expiresAt };
  }
  return null;
}

export async function ticketByToken(db: Db, token: string) {
  return db
    .selectFrom('survey_tickets')
    .selectAll()
    .where('token_hash', '=', sha256(token))
    .executeTakeFirst();
}

/** Marks the ticket used, once: false when it was used (or expired) already. */
export async function useTicket(db: Db, tokenHash: string, now = Date.now()): Promise<boolean> {
  const res = await db
    .updateTable('survey_tickets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
