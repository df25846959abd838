import { api, ApiError, API_BASE } from './client';
import { readAuth } from './storage';
import { fileNameOf, type Download } from './reports';
import type { ReportFilters } from '../domain/reports';
import type { CrosstabJson } from '../domain/crosstab';

// GET /project/stats/crosstab (issue 23): one crosstab with its tests for the report's Compare
// section, and the same table as an XLSX or CSV file.

export const CROSSTAB_PATH = '/project/stats/crosstab';

export interface CrosstabRequest {
  pid: number;
  rows: string;
  cols: string;
  filters: ReportFilters;
}

export function getCrosstab(
  req: CrosstabRequest,
  opts: { signal?: AbortSignal } = {},
): Promise<CrosstabJson> {
  return api.get<CrosstabJson>(CROSSTAB_PATH, {
    query: { pid: req.pid, rows: req.rows, cols: req.cols, ...req.filters },
    signal: opts.signal,
  });
}

export async function downloadCrosstab(
  req: CrosstabRequest,
  format: 'xlsx' | 'csv',
  locale: string,
): Promise<Download> {
  const params = new URLSearchParams({ pid: String(req.pid), rows: req.rows, cols: req.cols, format });
  for (const [k, v] of Object.entries(req.filters)) if (v !== undefined && v !== '') params.set(k, String(v));
  const headers: Record<string, string> = { 'accept-language': locale };
  const auth = readAuth();
  if (auth) {
    headers['x-auth-token'] = auth.accessToken;
    headers['x-refresh-token'] = auth.refreshToken;
  }
  const res = await fetch(`${API_BASE}${CROSSTAB_PATH}?${params}`, { headers });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { message?: string; code?: string } | null;
    throw new ApiError(
      body?.message ?? `Server response status: ${res.status}`,
      res.status,
      res,
      body,
      body?.code,
    );
  }
  return {
    blob: await res.blob(),
    fileName: fileNameOf(res.headers.get('content-disposition'), `crosstab.${format}`),
  };
}
