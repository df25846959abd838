import type { Generated } from 'kysely';

// Tables of migration 004-games-pricing: the game registry with its lookups, tariffs and the
// calculator's settings. Game secrets are kept only as SHA-256 hashes plus a few characters at each
// end for the masked display.

/** Genres and platforms: seeded ones carry a Russian and an English name; created ones the same
 *  name twice. norm_* are the lower-cased names, unique, so no name exists twice in either language. */
export interface GameLookupTable {
  id: Generated<number>;
  name_ru: string;
  name_en: string;
  norm_ru: string;
  norm_en: string;
  created_at: number;
}

/** ISO 4217 codes; the readable name is made in the caller's language by Intl. */
export interface GameCurrenciesTable {
  id: Generated<number>;
  code: string;
}

export interface GamesTable {
  id: Generated<number>;
  name: string;
  /** Lower-cased name: case-insensitive search and uniqueness within an organization. */
  name_norm: string;
  organization_id: number;
  genre_id: number;
  platform_id: number;
  currency_id: number;
  status: number;
  url: string;
  api_key_hash: string;
  api_key_prefix: string;
  api_key_suffix: string;
  token_hash: string;
  token_prefix: string;
  token_suffix: string;
  /** The handshake with the current secrets that moved the game to "SDK connected". */
  sdk_connected_at: number | null;
  last_sdk_at: number | null;
  created_by: number | null;
  created_at: number;
  updated_at: number;
}

export interface TariffsTable {
  id: Generated<number>;
  name: string;
  name_norm: string;
  discount: number;
  created_by: number | null;
  created_at: number;
}

/** One row per audience ('researchers', 'issuers'): the ten settings of the calculator. */
export interface CalculatorSettingsTable {
  audience: string;
  vk_percent: number;
  base_price: number;
  question_surcharge: number;
  question_step: number;
  block_surcharge: number;
  block_progressive: number;
  screening_price: number;
  target_filter_surcharge: number;
  filled_block_price: number;
  completed_survey_price: number;
  updated_by: number | null;
  updated_at: number;
}

export interface GamesPricingTables {
  game_genres: GameLookupTable;
  game_platforms: GameLookupTable;
  game_currencies: GameCurrenciesTable;
  games: GamesTable;
  tariffs: TariffsTable;
  calculator_settings: CalculatorSettingsTable;
}
