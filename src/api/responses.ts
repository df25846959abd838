import { api, type Query } from './client';
import { streamDownload } from './download';
import type { ExclusionResult, RespondentDetail, RespondentsPage } from '../domain/responses';

// The respondents of a project one by one (issue 31): the paged list with the report's filters and
// its own (status, dates, flag, exclusion, text), one respondent's answers, exclusion and restore
// by ids or by a filter, erasure, and the filtered list as a file. The shapes are the server's
// (src/domain/responses.ts).

export const RESPONDENTS_PATH = '/project/respondents';
export const RESPONDENT_PATH = '/project/respondent';
export const EXCLUSION_PATH = '/project/respondents/exclusion';

export type {
  ExclusionResult,
  QualityFlag,
  QualityFlagName,
  RespondentAnswer,
  RespondentDetail,
  RespondentListRow,
  RespondentSort,
  RespondentsPage,
  RespondentStatusName,
} from '../domain/responses';

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
