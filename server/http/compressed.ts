import zlib from 'node:zlib';
import { promisify } from 'node:util';
import type { FastifyReply, FastifyRequest } from 'fastify';

// Compressed answers kept beside the texts they compress (docs/decisions/reads.md). A
// 1 000-question project is 688 KB of JSON that @fastify/compress would brotli-compress afresh on
// every GET /project; the text of a version never changes, so its compressed body is made once,
// off the main thread (zlib's thread pool), and sent as it is until the version changes. The same
// for a final report. Calls that ask for one body while it is being made wait for that one.

export type Encoding = 'br' | 'gzip';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * brotli 4 (@fastify/compress's own level) and gzip 6: on the 1 000-question project, brotli 4
 * takes 3 ms for 9.3 KB, 5 → 6 ms and 9 → 32 ms for no smaller a body, 11 → 4.5 s; made once per
 * version, none of the slower levels pays.
 */
function compress(text: string, encoding: Encoding): Promise<Buffer> {
  const input = Buffer.from(text);
  return encoding === 'br'
    ? brotli(input, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: input.length,
        },
      })
    : gzip(input, { level: 6 });
}

/** The encoding to send: brotli when accepted, else gzip, else none (q=0 refuses one). */
export function preferredEncoding(header: string | string[] | undefined): Encoding | null {
  if (!header) return null;
  const accepted = new Set<string>();
  for (const part of String(header).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find((m) => m);
    if (q && Number(q[1]) <= 0) continue;
    accepted.add(name.trim());
  }
  if (accepted.has('br') || accepted.has('*')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

/** Compressed bodies by key, the least recently used dropped past `maxBytes`. */
export class CompressedBodies {
  private bodies = new Map<string, Promise<Buffer>>();
  private sizes = new Map<string, number>();
  private bytes = 0;

  constructor(private maxBytes = 32 * 1024 * 1024) {}

  get(key: string, text: () => string, encoding: Encoding): Promise<Buffer> {
    const k = `${encoding}:${key}`;
    let body = this.bodies.get(k);
    if (body) {
      this.bodies.delete(k);
      this.bodies.set(k, body);
      return body;
    }
    body = compress(text(), encoding);
    this.bodies.set(k, body);
    body.then(
      (b) => {
        if (this.bodies.get(k) !== body) return;
        this.sizes.set(k, b.length);
        this.bytes += b.length;
        this.trim(k);
      },
      () => this.bodies.delete(k),
    );
    return body;
  }

  private trim(keep: string) {
    for (const k of this.bodies.keys()) {
      if (this.bytes <= this.maxBytes) break;
      if (k === keep || !this.sizes.has(k)) continue;
      this.bodies.delete(k);
      this.bytes -= this.sizes.get(k)!;
      this.sizes.delete(k);
    }
  }
}

/**
 * Sends `text` as JSON, compressed from `cache` under `key` when the caller accepts brotli or gzip
 * (the key must name the text exactly: a new text needs a new key).
 */
export async function sendJsonCompressed(
  req: FastifyRequest,
  reply: FastifyReply,
  cache: CompressedBodies,
  key: string,
  text: () => string,
) {
  reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
  const encoding = preferredEncoding(req.headers['accept-encoding']);
  if (!encoding) return reply.send(text());
  const body = await cache.get(key, text, encoding);
  return reply.header('content-encoding', encoding).send(body);
}
