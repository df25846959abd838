import crypto from 'node:crypto';
import type { Db } from '../db';
import type { ImageExt } from '../../src/domain/content/limits';

// Pictures live in the database (migration 022), content-addressed: one row per SHA-256 of the
// bytes, so any server process serves any picture and an upload of the same bytes is one row.
// Their names never change content, so each process keeps the pictures asked for lately in memory
// (PictureCache below): a copy can never be stale, and serving one is no database read.

/** A picture's name in its URL: the hash of its bytes and its type. */
export const PICTURE_NAME = /^([0-9a-f]{64})\.(jpg|png|webp|gif)$/;

// Which picture a file is, judged by its first bytes (the signatures of the formats), never by its
// name or the type the browser claims.
export function sniffImage(b: Buffer): ImageExt | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpg';
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (
    b.length >= 6 &&
    (b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a')
  )
    return 'gif';
  if (
    b.length >= 12 &&
    b.subarray(0, 4).toString('latin1') === 'RIFF' &&
    b.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'webp';
  return null;
}

export const pictureHashOf = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

export interface NewPicture {
  hash: string;
  ext: ImageExt;
  bytes: Buffer;
}

/**
 * Stores pictures (in the caller's transaction when given one). A picture already stored is left as
 * it is; a row written before 022 whose bytes never came in (the file stayed on another machine)
 * takes them now.
 */
export async function savePictures(
  db: Db,
  pictures: NewPicture[],
  by: { userId: number | null; at: number },
): Promise<void> {
  for (const p of pictures)
    await db
      .insertInto('pictures')
      .values({
        hash: p.hash,
        ext: p.ext,
        size: p.bytes.length,
        bytes: p.bytes,
        created_at: by.at,
        created_by: by.userId,
      })
      .onConflict((oc) =>
        oc
          .column('hash')
          .doUpdateSet({ bytes: (eb) => eb.ref('excluded.bytes') })
          .where('pictures.bytes', 'is', null),
      )
      .execute();
}

export interface ServedPicture {
  ext: ImageExt;
  bytes: Buffer;
  /** The bytes as 64 KB views (no copies): sent as a stream, under load that is about twice as fast as one write of the whole. */
  chunks: Buffer[];
}

const CHUNK = 64 * 1024;
function servedPicture(ext: ImageExt, bytes: Buffer): ServedPicture {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) chunks.push(bytes.subarray(i, i + CHUNK));
  return { ext, bytes, chunks };
}

/** Most bytes of pictures one process keeps: a few hundred typical pictures, bounded whatever they weigh. */
export const PICTURE_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The pictures served lately, least recently used dropped first, bounded by their bytes. Readers of a
 * picture that is not kept wait for one read of it, however many ask at once (a new question's
 * picture shown to a crowd of respondents is read once, not once per respondent).
 */
export class PictureCache {
  private kept = new Map<string, ServedPicture>();
  private size = 0;
  private reading = new Map<string, Promise<ServedPicture | null>>();

  constructor(
    private readonly db: Db,
    private readonly maxBytes = PICTURE_CACHE_BYTES,
  ) {}

  /** The picture of that hash and type, or null when there is none (or its bytes are not in yet). */
  get(hash: string, ext: ImageExt): ServedPicture | null | Promise<ServedPicture | null> {
    const hit = this.kept.get(hash);
    if (hit) {
      // Most recently used last: Map keeps insertion order.
      this.kept.delete(hash);
      this.kept.set(hash, hit);
      return hit.ext === ext ? hit : null;
    }
    let pending = this.reading.get(hash);
    if (!pending) {
      pending = this.read(hash).finally(() => this.reading.delete(hash));
      this.reading.set(hash, pending);
    }
    return pending.then((p) => (p && p.ext === ext ? p : null));
  }

  private async read(hash: string): Promise<ServedPicture | null> {
    const row = await this.db
      .selectFrom('pictures')
      .select(['ext', 'bytes'])
      .where('hash', '=', hash)
      .executeTakeFirst();
    if (!row?.bytes) return null;
    const bytes = Buffer.isBuffer(row.bytes) ? row.bytes : Buffer.from(row.bytes);
    const picture = servedPicture(row.ext as ImageExt, bytes);
    if (picture.bytes.length <= this.maxBytes / 4) this.keep(hash, picture);
    return picture;
  }

  private keep(hash: string, picture: ServedPicture) {
    if (this.kept.has(hash)) return;
    this.kept.set(hash, picture);
    this.size += picture.bytes.length;
    for (const [key, old] of this.kept) {
      if (this.size <= this.maxBytes) break;
      this.kept.delete(key);
      this.size -= old.bytes.length;
    }
  }
}

const caches = new WeakMap<Db, PictureCache>();

/** This process's picture cache for the database. */
export function pictureCache(db: Db): PictureCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new PictureCache(db)));
  return cache;
}
