import { api, ApiError, API_BASE } from './client';
import { readAuth } from './storage';
import type { ReportFilters, ReportFormat, ReportJson } from '../domain/reports';
import { reportQuery, STATS_PATH, type ReportOptions } from './reportQuery';

// GET /project/stats/file (spec section 7): the report as JSON for the /report page, and the
// workbook or CSV download. The download reads the body as it streams so the page can show how much
// has arrived (the server streams, so the total size is not known beforehand).

export { reportQuery, STATS_PATH };

export function getReport(
  pid: number,
  filters: ReportFilters,
  opts: ReportOptions = {},
): Promise<ReportJson> {
  return api.get<ReportJson>(STATS_PATH, { query: reportQuery(pid, filters, opts), signal: opts.signal });
}

export interface Download {
  blob: Blob;
  fileName: string;
}

/** The file name from Content-Disposition (RFC 5987's filename* first). */
export function fileNameOf(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      /* a broken encoding falls back to the plain name */
    }
  }
  return /filename="([^"]*)"/i.exec(header)?.[1] ?? fallback;
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
  const headers: Record<string, string> = { 'accept-language': opts.locale };
  const auth = readAuth();
  if (auth) {
    headers['x-auth-token'] = auth.accessToken;
    headers['x-refresh-token'] = auth.refreshToken;
  }
  const res = await fetch(`${API_BASE}${STATS_PATH}?${params}`, { headers, signal: opts.signal });
  if (!res.ok || !res.body) {
    // Refusals are JSON like every other call's; read them through the shared client's rules.
    const body = (await res.json().catch(() => null)) as { message?: string; code?: string } | null;
    throw new ApiError(
      body?.message ?? `Server response status: ${res.status}`,
      res.status,
      res,
      body,
      body?.code,
    );
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
    opts.onProgress?.(bytes);
  }
  const type = res.headers.get('content-type') ?? 'application/octet-stream';
  return {
    blob: new Blob(chunks, { type }),
    fileName: fileNameOf(res.headers.get('content-disposition'), `report.${format}`),
  };
}
