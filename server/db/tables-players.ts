import type { Generated } from 'kysely';

// Tables of migration 016-players: game players' records (writeToDb answers) and the SDK's offers
// per day. server/players/ reads and writes them.

/** One per game and SDK player id; created by the first writeToDb answer of that player. */
export interface GamePlayersTable {
  id: Generated<number>;
  game_id: number;
  player_id: string;
  gender: string | null;
  age: number | null;
  city: string | null;
  region: string | null;
  education: string | null;
  created_at: number;
  updated_at: number;
}

/** Any other field named in a question's dbFields: the answer as text. */
export interface GamePlayerFieldsTable {
  game_player_id: number;
  name: string;
  value: string;
  updated_at: number;
}

/** POST /games/sdk/survey calls answered with a survey, per game and UTC day number. */
export interface GameOffersDailyTable {
  game_id: number;
  day: number;
  offered: number;
}

export interface PlayersTables {
  game_players: GamePlayersTable;
  game_player_fields: GamePlayerFieldsTable;
  game_offers_daily: GameOffersDailyTable;
}
