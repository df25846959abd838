import { sql, type Transaction } from 'kysely';
import type { Db } from '../db';
import type { Database } from '../db/schema';
import { cityIds } from '../data/cities';
import type { Question } from '../../src/domain/content/model';
import type { Attributes, Reply } from '../../src/domain/flow';
import {
  fieldText,
  isMappedField,
  mappedValue,
  type PlayerErasure,
  type PlayerRecord,
} from '../../src/domain/players';

// Game players' records (issue 24, part 2; tables of migration 016-players). A record is keyed by
// the game and the SDK's player id; it is made by the first answer of that player to a question
// with writeToDb, in the transaction that stores the answer (respond.ts calls playerWriteFor), and
// read back by the next POST /games/sdk/survey for portrait matching. Direct-link respondents have
// no game and no player id: nothing is written for them. docs/decisions/players.md.

type Executor = Db | Transaction<Database>;

let cities: Set<string> | null = null;
const isCity = (id: string) => (cities ??= new Set(cityIds())).has(id);

interface PlayerChanges {
  mapped: { gender?: string; age?: number; city?: string; region?: string; education?: string };
  fields: { name: string; value: string }[];
}

/** What one answered page writes into the player's record; null when nothing (most pages). */
export function playerChanges(q: Question, reply: Reply): PlayerChanges | null {
  if (!q.writeToDb || q.dbFields.length === 0) return null;
  const out: PlayerChanges = { mapped: {}, fields: [] };
  let any = false;
  for (const name of new Set(q.dbFields)) {
    if (isMappedField(name)) {
      // An answer that does not map onto the field's values is stored nowhere.
      const value = mappedValue(name, q, reply, isCity);
      if (value === null) continue;
      if (name === 'age') out.mapped.age = value as number;
      else if (name === 'city') {
        out.mapped.city = value as string;
        out.mapped.region = (value as string).split(':')[0];
      } else out.mapped[name] = value as string;
      any = true;
    } else {
      const text = fieldText(q, reply);
      if (text === null) continue;
      out.fields.push({ name, value: text });
      any = true;
    }
  }
  return any ? out : null;
}

/**
 * The write the answer's transaction runs for this page, or null when there is none: the page's
 * question has no writeToDb, or the respondent is not a game's player (a direct link).
 * The one call respond.ts makes into this module.
 */
export function playerWriteFor(
  respondent: { game_id: number | null; player_id: string | null },
  q: Question,
  reply: Reply,
  now: number,
): ((trx: Executor) => Promise<void>) | null {
  if (respondent.game_id === null || !respondent.player_id) return null;
  const changes = playerChanges(q, reply);
  if (!changes) return null;
  const gameId = respondent.game_id;
  const playerId = respondent.player_id;
  return (trx) => writePlayer(trx, gameId, playerId, changes, now);
}

async function writePlayer(
  trx: Executor,
  gameId: number,
  playerId: string,
  changes: PlayerChanges,
  now: number,
): Promise<void> {
  const { mapped, fields } = changes;
  // A game deleted while its player answers takes their records with it; the answer still counts.
  if (!(await trx.selectFrom('games').select('id').where('id', '=', gameId).executeTakeFirst())) return;
  const row = await trx
    .insertInto('game_players')
    .values({
      game_id: gameId,
      player_id: playerId,
      gender: mapped.gender ?? null,
      age: mapped.age ?? null,
      city: mapped.city ?? null,
      region: mapped.region ?? null,
      education: mapped.education ?? null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      // Only the fields this answer maps change; the others keep what earlier answers stored.
      oc.columns(['game_id', 'player_id']).doUpdateSet({ ...mapped, updated_at: now }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  if (fields.length === 0) return;
  await trx
    .insertInto('game_player_fields')
    .values(fields.map((f) => ({ game_player_id: row.id, name: f.name, value: f.value, updated_at: now })))
    .onConflict((oc) =>
      oc.columns(['game_player_id', 'name']).doUpdateSet({
        value: sql`excluded.value`,
        updated_at: sql`excluded.updated_at`,
      }),
    )
    .execute();
}

export async function findPlayer(db: Db, gameId: number, playerId: string): Promise<PlayerRecord | null> {
  const row = await db
    .selectFrom('game_players')
    .selectAll()
    .where('game_id', '=', gameId)
    .where('player_id', '=', playerId)
    .executeTakeFirst();
  if (!row) return null;
  const fields = await db
    .selectFrom('game_player_fields')
    .select(['name', 'value'])
    .where('game_player_id', '=', row.id)
    .orderBy('name')
    .execute();
  return {
    gameId,
    playerId,
    gender: row.gender,
    age: row.age,
    city: row.city,
    education: row.education,
    fields: Object.fromEntries(fields.map((f) => [f.name, f.value])),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/**
 * The SDK call's player with the stored gender, age, city and education filled in where the call
 * omitted them (null or absent), so a portrait can match a player the game knows nothing about.
 */
export async function withStoredFields<P extends Attributes & { playerId: string }>(
  db: Db,
  gameId: number,
  player: P,
): Promise<P> {
  if (player.gender && player.age != null && player.city && player.education) return player;
  const row = await db
    .selectFrom('game_players')
    .select(['gender', 'age', 'city', 'region', 'education'])
    .where('game_id', '=', gameId)
    .where('player_id', '=', player.playerId)
    .executeTakeFirst();
  if (!row) return player;
  const city = player.city ?? row.city;
  return {
    ...player,
    gender: player.gender ?? (row.gender as Attributes['gender']),
    age: player.age ?? row.age,
    city,
    region: player.city ? player.region : (row.region ?? player.region ?? null),
    education: player.education ?? row.education,
  };
}

/**
 * Erases a player's record and takes their id off their respondents (the answers stay, now
 * anonymous, and keep counting in reports), and off this game's survey tickets, in one transaction.
 */
export async function erasePlayer(db: Db, gameId: number, playerId: string): Promise<PlayerErasure> {
  return db.transaction().execute(async (trx) => {
    const gone = await trx
      .deleteFrom('game_players')
      .where('game_id', '=', gameId)
      .where('player_id', '=', playerId)
      .executeTakeFirst();
    const unlinked = await trx
      .updateTable('respondents')
      .set({ player_id: null })
      .where('game_id', '=', gameId)
      .where('player_id', '=', playerId)
      .executeTakeFirst();
    // A ticket keeps the player it was issued for (its JSON starts with the player id as written).
    const prefix = JSON.stringify({ playerId }).slice(0, -1);
    await trx
      .updateTable('survey_tickets')
      .set({ player: '{}' })
      .where('game_id', '=', gameId)
      .where(sql<boolean>`substr(player, 1, ${prefix.length}) = ${prefix}`)
      .execute();
    return { record: Number(gone.numDeletedRows) > 0, respondents: Number(unlinked.numUpdatedRows) };
  });
}
