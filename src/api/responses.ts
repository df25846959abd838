import { api, type Query } from './client';
import { streamDownload } from './download';

// The respondents of a project one by one (issue 31): the paged list with the report's filters and
// its own (status, dates, flag, exclusion, text), one respondent's answers, exclusion and restore
// by ids or by a filter, erasure, and the filtered list as a file. PROVISIONAL shapes until
// src/domain/responses.ts lands from the server's branch; then these types come from there.

export const RESPONDENTS_PATH = '/project/respondents';
export const RESPONDENT_PATH = '/project/respondent';
export const EXCLUSION_PATH = '/project/respondents/exclusion';

export const FLAG_KINDS = ['speeder', 'straight-liner', 'gibberish', 'duplicate'] as const;
export type FlagKind = (typeof FLAG_KINDS)[number];
export const RESPONDENT_STATUSES = ['inProgress', 'completed', 'screenedOut', 'quotaFull'] as const;
export type RespondentStatus = (typeof RESPONDENT_STATUSES)[number];
export const EXCLUDED_CHOICES = ['none', 'only', 'all'] as const;
export type ExcludedChoice = (typeof EXCLUDED_CHOICES)[number];
export const FLAG_FILTERS = ['any', 'none', ...FLAG_KINDS] as const;
export const RESPONDENT_SORTS = [
  '-started',
  'started',
  '-finished',
  'finished',
  '-duration',
  'duration',
  '-id',
  'id',
] as const;
export type RespondentSort = (typeof RESPONDENT_SORTS)[number];
/** The largest page the list call answers. */
export const RESPONDENTS_PAGE_MAX = 200;
export const EXCLUSION_REASON_MAX = 500;

export interface RespondentFlag {
  name: FlagKind;
  /** In the reader's language ("Finished in 41 s; half the median is 95 s"). */
  reason: string;
}

export interface RespondentExclusion {
  reason: string;
  at: number;
  author: { id: number | null; email: string; fullname: string };
}

export interface RespondentRow {
  id: number;
  status: RespondentStatus;
  source: 'link' | 'sdk' | 'demo';
  game: { id: number; name: string } | null;
  portrait: { id: string; name: string } | null;
  startedAt: number;
  finishedAt: number | null;
  durationSeconds: number | null;
  profile: {
    gender: string | null;
    age: number | null;
    city: string | null;
    cityName: string | null;
    education: string | null;
  };
  language: string | null;
  flags: RespondentFlag[];
  exclusion: RespondentExclusion | null;
  erasedAt: number | null;
}

export interface RespondentsPage {
  total: number;
  page: number;
  pageSize: number;
  items: RespondentRow[];
}

export interface RespondentAnswer {
  questionId: string;
  questionnaireId: string;
  blockId: string;
  number: number;
  category: string;
  text: string;
  picked: { id: string; text: string }[];
  ranked?: { id: string; text: string; rank: number }[];
  cells?: { statementId: string; statement: string; answerId: string; answer: string }[];
  value?: number | null;
  other?: string | null;
  /** open: the text; cityAuto/regionAuto: the place's name. PROVISIONAL name (the server's draft has two `text`s). */
  answerText?: string | null;
  placeId?: string | null;
  shown: { id: string; text: string }[];
  seconds: number | null;
  flagged: FlagKind[];
}

export interface RespondentDetail {
  respondent: RespondentRow;
  answers: RespondentAnswer[];
  pageTimes: boolean;
}

export interface ExclusionResult {
  affected: number;
  quotaPlaces: number;
}

/** The filters of the list (all optional, AND) as the address holds them: the report's and the list's own. */
export type RespondentFilters = Record<string, string>;

export interface ListRequest {
  pid: number;
  filters: RespondentFilters;
  page: number;
  pageSize: number;
  sort?: string;
}

export const respondentsQuery = (r: ListRequest): Query => ({
  pid: r.pid,
  ...r.filters,
  page: r.page,
  pageSize: r.pageSize,
  sort: r.sort,
});

export const listRespondents = (r: ListRequest, signal?: AbortSignal) =>
  api.get<RespondentsPage>(RESPONDENTS_PATH, { query: respondentsQuery(r), signal });

export const getRespondent = (pid: number, id: number, signal?: AbortSignal) =>
  api.get<RespondentDetail>(RESPONDENT_PATH, { query: { pid, id }, signal });

export type ExclusionTarget = { ids: number[] } | { filter: RespondentFilters };

export const setExclusion = (pid: number, target: ExclusionTarget, excluded: boolean, reason: string) =>
  api.post<ExclusionResult>(EXCLUSION_PATH, { pid, ...target, excluded, reason });

export const eraseRespondent = (pid: number, id: number) => api.del<unknown>(RESPONDENT_PATH, { pid, id });

/** PROVISIONAL path until the server's list download lands. */
export const RESPONDENTS_FILE_PATH = '/project/respondents/file';
export type RespondentsFormat = 'xlsx' | 'csv';

/** The filtered list as a file (the same filters as the list; excluded respondents marked). */
export function downloadRespondents(
  pid: number,
  format: RespondentsFormat,
  filters: RespondentFilters,
  opts: { locale: string; onProgress?: (bytes: number) => void; signal?: AbortSignal },
) {
  const params = new URLSearchParams({ pid: String(pid), format });
  for (const [k, v] of Object.entries(filters)) if (v !== '') params.set(k, v);
  return streamDownload(RESPONDENTS_FILE_PATH, params, `respondents.${format}`, opts);
}
