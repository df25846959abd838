import type { Generated } from 'kysely';
import type { ProjectsTable, ProjectSettingsTable, ProjectTargetPlatformsTable } from './tables-projects';
import type { GamesPricingTables } from './tables-games';
import type { OrganizationTypesTable, UserTokensTable } from './tables-people';
import type { PicturesTable, ProjectContentsTable, ProjectContentVersionsTable } from './tables-content';
import type {
  PortraitQuotasTable,
  ProjectQualityTable,
  ReportCityCountsTable,
  ReportCountsTable,
  RespondentAnswersTable,
  RespondentsTable,
  SurveyTicketsTable,
} from './tables-responses';
import type { PlayersTables } from './tables-players';
import type { CallbackDeliveriesTable, ProjectCallbackSecretsTable } from './tables-callbacks';

// One interface per table, joined into the Database type that every query is checked against.
// Times are unix milliseconds (bigint in PostgreSQL, parsed back to numbers), booleans are 0/1.

export interface RolesTable {
  id: number;
  name: string;
  description: string;
  created_at: number;
  deleted_at: number;
}

export interface UserStatusesTable {
  id: number;
  name: string;
}

export interface CategoriesTable {
  id: Generated<number>;
  name: string;
  /** Seeded categories carry a code that names their i18n label (003-people); custom ones null. */
  code: string | null;
}

export interface OrganizationsTable {
  id: Generated<number>;
  name: string;
  type: number;
  category_id: number | null;
  created_at: number;
  /** organizationNameKey(name): unique, so one organization is not created twice (003-people). */
  name_key: string | null;
}

export interface UsersTable {
  id: Generated<number>;
  email: string;
  fullname: string;
  role_id: number;
  status_id: number;
  organization_id: number | null;
  category_id: number | null;
  password_hash: string | null;
  locale: string | null;
  created_at: number;
  updated_at: number;
  /** Lower-cased "email fullname" for search (003-people); null on rows written elsewhere (the first administrator, test helpers): search then falls back to lower() of the two columns. */
  search_text: string | null;
}

/** One sign-in: every token pair rotated from it shares the family and its absolute expiry. */
export interface AuthFamiliesTable {
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** One access/refresh pair; only SHA-256 hashes of the tokens are stored. */
export interface AuthTokensTable {
  id: Generated<number>;
  family_id: string;
  access_hash: string;
  refresh_hash: string;
  access_expires_at: number;
  rotated_at: number | null;
  created_at: number;
}

/** Fixed-window counters (failed logins, registrations) shared by every server process. */
export interface RateLimitsTable {
  key: string;
  window_start: number;
  count: number;
}

/** The Logs page: one row per mutating call. Never updated or deleted. */
export interface HistoryTable {
  id: Generated<number>;
  user_id: number | null;
  email: string;
  organization: string;
  chapter: string;
  service: string;
  /** An i18n key (dotted path) and its JSON params, translated when read. */
  message_key: string;
  message_params: string;
  created_at: number;
}

export interface Database {
  roles: RolesTable;
  user_statuses: UserStatusesTable;
  categories: CategoriesTable;
  organizations: OrganizationsTable;
  users: UsersTable;
  auth_families: AuthFamiliesTable;
  auth_tokens: AuthTokensTable;
  rate_limits: RateLimitsTable;
  history: HistoryTable;
  projects: ProjectsTable;
  project_settings: ProjectSettingsTable;
  project_target_platforms: ProjectTargetPlatformsTable;
  game_genres: GamesPricingTables['game_genres'];
  game_platforms: GamesPricingTables['game_platforms'];
  game_currencies: GamesPricingTables['game_currencies'];
  games: GamesPricingTables['games'];
  tariffs: GamesPricingTables['tariffs'];
  calculator_settings: GamesPricingTables['calculator_settings'];
  user_tokens: UserTokensTable;
  organization_types: OrganizationTypesTable;
  project_contents: ProjectContentsTable;
  project_content_versions: ProjectContentVersionsTable;
  pictures: PicturesTable;
  respondents: RespondentsTable;
  respondent_answers: RespondentAnswersTable;
  portrait_quotas: PortraitQuotasTable;
  project_quality: ProjectQualityTable;
  report_counts: ReportCountsTable;
  report_city_counts: ReportCityCountsTable;
  survey_tickets: SurveyTicketsTable;
  game_players: PlayersTables['game_players'];
  game_player_fields: PlayersTables['game_player_fields'];
  game_offers_daily: PlayersTables['game_offers_daily'];
  callback_deliveries: CallbackDeliveriesTable;
  project_callback_secrets: ProjectCallbackSecretsTable;
}
