import type { Query } from './client';
import type { ReportFilters } from '../domain/reports';

// The report's JSON call, apart from the rest of reports.ts so that the start-up's early call for
// /report (views/shell/earlyCalls.ts) asks exactly what the page asks without the download code.

export const STATS_PATH = '/project/stats/file';

export type ReportOptions = {
  signal?: AbortSignal;
  openPage?: number;
  openQuestion?: string;
  textSearch?: string;
};

/** The query of the report's JSON (the start-up's early call for /report asks the same). */
export function reportQuery(pid: number, filters: ReportFilters, opts: ReportOptions = {}): Query {
  return {
    pid,
    type: 'json',
    ...filters,
    openPage: opts.openPage,
    openQuestion: opts.openQuestion,
    textSearch: opts.textSearch || undefined,
  };
}
