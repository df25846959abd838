import { ApiError, API_BASE } from './client';
import { readAuth } from './storage';

// A file the server streams (a list or a report as XLSX or CSV), read as it arrives so the page can
// say how much has come (the size is not known beforehand). Refusals are JSON like every other
// call's and become an ApiError with the server's translated message.

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

export async function streamDownload(
  path: string,
  params: URLSearchParams,
  fallbackName: string,
  opts: { locale: string; onProgress?: (bytes: number) => void; signal?: AbortSignal },
): Promise<Download> {
  const headers: Record<string, string> = { 'accept-language': opts.locale };
  const auth = readAuth();
  if (auth) {
    headers['x-auth-token'] = auth.accessToken;
    headers['x-refresh-token'] = auth.refreshToken;
  }
  const res = await fetch(`${API_BASE}${path}?${params}`, { headers, signal: opts.signal });
  if (!res.ok || !res.body) {
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
    fileName: fileNameOf(res.headers.get('content-disposition'), fallbackName),
  };
}

/** Hands a downloaded file to the browser as a save. */
export function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
