import type { Generated } from 'kysely';

// Respondents, answers, portrait quotas and SDK survey tickets (migration 007-responses).

export const RESPONDENT_STATUS = { started: 1, completed: 2, screenedOut: 3 } as const;

export interface RespondentsTable {
  id: Generated<number>;
  project_id: number;
  questionnaire_id: string;
  portrait_id: string | null;
  token_hash: string;
  source: 'link' | 'sdk' | 'demo';
  game_id: number | null;
  player_id: string | null;
  gender: string | null;
  age: number | null;
  city: string | null;
  region: string | null;
  education: string | null;
  platform: string | null;
  status: number;
  /** JSON: the runner's position and the order each question's answers were shown in. */
  state: string;
  locale: string | null;
  started_at: number;
  updated_at: number;
  finished_at: number | null;
  /** The question shown now, or the last answered once the survey ended (018; the funnel). */
  last_question_id: string | null;
  /** 1: left out of every figure and download (020; server/responses/predicate.ts). */
  excluded: Generated<number>;
  /** JSON RespondentExclusionRecord (server/responses/exclusion.ts): reason, author, time, place freed. */
  exclusion: string | null;
  /** Erased at the person's request (020): no profile, no answers, excluded. */
  erased_at: number | null;
  /** Quality flags as bits (FLAG_BITS in server/responses/flags.ts). */
  flags: Generated<number>;
  /** JSON: what each flag found (its parameters), by flag name. */
  flag_params: string | null;
  /** SHA-256 of the respondent page's browser marker (direct links; duplicates). */
  browser_hash: string | null;
  /** The questionnaire language of the respondent's last page (021); null before 021: the source. */
  language: string | null;
}

/** The speeder rule's state per project (020): the median it was last taken at, and the threshold. */
export interface ProjectQualityTable {
  project_id: number;
  completed: number;
  median_of: number;
  median_ms: number | null;
  threshold_ms: number | null;
  percent: number;
  /** 0 while respondents completed before migration 020 wait for their flags. */
  judged: Generated<number>;
  updated_at: number;
}

/** One row per picked answer, per matrix cell, per ranked answer, or one row for a value or a text. */
export interface RespondentAnswersTable {
  id: Generated<number>;
  respondent_id: number;
  project_id: number;
  question_id: string;
  answer_id: string | null;
  statement_id: string | null;
  value: number | null;
  text: string | null;
}

/**
 * The report's counters (migrations 010-report-counters, 011): n answer rows (kind 0) or respondents who
 * answered (kind 1) per key, kept in the answer's transaction; '' and 0 stand for "none" in the key.
 */
export interface ReportCountsTable {
  project_id: number;
  portrait_id: string;
  /** The respondent's, '' when not known (011). */
  gender: string;
  education: string;
  /** The respondent's, -1 when not known. */
  age: number;
  /** The respondent's questionnaire language, '' when not known (024). */
  language: string;
  question_id: string;
  kind: number;
  answer_id: string;
  statement_id: string;
  has_value: number;
  value: number;
  place: string;
  shard: number;
  n: number;
}

/**
 * The same counters per city (013): the respondents of each known city, by portrait, gender and
 * education, spread over shards; no age in the key.
 */
export interface ReportCityCountsTable {
  project_id: number;
  city: string;
  question_id: string;
  kind: number;
  answer_id: string;
  statement_id: string;
  has_value: number;
  value: number;
  place: string;
  portrait_id: string;
  gender: string;
  education: string;
  /** As report_counts' (024). */
  language: string;
  shard: number;
  n: number;
}

/** Changes to the counters not folded in yet (020; server/reports/counter-shift.ts): same columns, no key. */
export type ReportCountDeltasTable = ReportCountsTable;
export type ReportCityCountDeltasTable = ReportCityCountsTable;

export interface PortraitQuotasTable {
  project_id: number;
  portrait_id: string;
  target: number;
  completed: number;
}

export interface SurveyTicketsTable {
  token_hash: string;
  project_id: number;
  game_id: number | null;
  portrait_id: string | null;
  player: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  /** The SDK call's `locale` for the player (021), the runner's first wish of a language. */
  locale: string | null;
}
