import { api } from './client';
import { streamDownload, type Download } from './download';
import type { ReportFilters, ReportFormat, ReportJson } from '../domain/reports';
import { reportQuery, STATS_PATH, type ReportOptions } from './reportQuery';

// GET /project/stats/file (spec section 7): the report as JSON for the /report page, and the
// workbook or CSV download. The download reads the body as it streams so the page can show how much
// has arrived (the server streams, so the total size is not known beforehand).

export { reportQuery, STATS_PATH };
export { fileNameOf, type Download } from './download';

export function getReport(
  pid: number,
  filters: ReportFilters,
  opts: ReportOptions = {},
): Promise<ReportJson> {
  return api.get<ReportJson>(STATS_PATH, { query: reportQuery(pid, filters, opts), signal: opts.signal });
}

export async function downloadReport(
  pid: number,
  format: ReportFormat,
  filters: ReportFilters,
  opts: {
    locale: string;
    /** The questionnaire language of the file's texts (issue 32); the source when absent. */
    labels?: string;
    onProgress?: (bytes: number) => void;
    signal?: AbortSignal;
  },
): Promise<Download> {
  const params = new URLSearchParams({ pid: String(pid), type: 'stats', format });
  if (opts.labels) params.set('labels', opts.labels);
  for (const [k, v] of Object.entries(filters)) if (v !== undefined && v !== '') params.set(k, String(v));
  return streamDownload(STATS_PATH, params, `report.${format}`, opts);
}
