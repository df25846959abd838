import zlib from 'node:zlib';
import type { Transform } from 'node:stream';
import type { FastifyRequest } from 'fastify';

// A CSV download is compressed in its download thread (download-job.ts, writeDownload), not by
// @fastify/compress on the server's side: the plugin compresses a stream in the server process's
// thread pool at the server's own priority, and on a 2-core machine those 40 MB of deflate competed
// with the server's thread on equal terms (the SQLite CSV's event-loop stall reached 54 ms while its
// busy stretches stayed at 31; docs/benchmarks.md). In the thread it runs at the thread's lower
// priority, and the server's thread passes on a fifth of the bytes. Same settings as the plugin's
// (brotli quality 4, zlib's default gzip level), so the reader gets the same file as before. XLSX is
// a zip already and SAV is not compressible text: neither is encoded, as the plugin left them.

export type DownloadEncoding = 'br' | 'gzip';

/** The reader's preference among brotli and gzip (q-values honoured); null for identity. */
export function acceptedEncoding(header: string | undefined): DownloadEncoding | null {
  const q = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const of = (name: DownloadEncoding) => q.get(name) ?? q.get('*') ?? 0;
  const [br, gzip] = [of('br'), of('gzip')];
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return null;
}

/** How this request's download is encoded: only a CSV, as the plugin would have done it. */
export function downloadEncoding(req: FastifyRequest, format: string): DownloadEncoding | null {
  if (format !== 'csv' || req.headers['x-no-compression'] !== undefined) return null;
  return acceptedEncoding(req.headers['accept-encoding']);
}

export function encoder(encoding: DownloadEncoding): Transform {
  return encoding === 'br'
    ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })
    : zlib.createGzip();
}
