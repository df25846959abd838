import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { Role } from '../../src/domain/roles';
import { IMAGE_TYPES, LIMITS, pictureUrl, type ImageExt } from '../../src/domain/content/limits';
import { audit } from '../http/audit';
import { requireRole } from '../http/context';
import { badRequest, HttpError, notFound } from '../http/errors';
import { PICTURE_NAME, pictureCache, pictureHashOf, savePictures, sniffImage } from '../pictures/store';

// POST /picture takes multipart `images` parts; pictures are kept in the database by content hash
// (server/pictures/store.ts) and served publicly at GET /pictures/<sha256>.<ext> by any server
// (respondents see them), cached for a year.

export default async function pictureRoutes(app: FastifyInstance) {
  const { db } = app;
  const pictures = pictureCache(db);

  await app.register(multipart, {
    limits: {
      fileSize: LIMITS.imageBytes,
      files: LIMITS.imagesPerUpload,
      fields: 10,
      parts: LIMITS.imagesPerUpload + 10,
      fieldSize: 1024,
    },
    throwFileSizeLimit: true,
  });

  app.post('/picture', async (req) => {
    const user = requireRole(req, Role.Administrator, Role.Researcher, Role.DemoResearcher);
    if (!req.isMultipart())
      throw badRequest((t) => t.editor.pictures.notMultipart(), { code: 'not-multipart' });
    const files: { name: string; buffer: Buffer; ext: ImageExt }[] = [];
    // The file being read: an oversize part can fail inside toBuffer() or, when the stream errors
    // first, from the parts iterator itself; both name the file.
    let current = 'image';
    const tooLarge = (name: string) =>
      new HttpError(413, (t) => t.editor.pictures.tooLarge({ name, max: LIMITS.imageBytes / 1024 / 1024 }), {
        code: 'too-large',
      });
    try {
      for await (const part of req.parts()) {
        if (part.type !== 'file') continue;
        if (part.fieldname !== 'images' && part.fieldname !== 'images[]') {
          await part.toBuffer();
          continue;
        }
        const name = (part.filename || 'image').slice(0, 200);
        current = name;
        const buffer = await part.toBuffer();
        // Judged by the bytes: a renamed text file or an SVG (scripts) is refused whatever its name says.
        const ext = sniffImage(buffer);
        if (!ext) throw badRequest((t) => t.editor.pictures.badType({ name }), { code: 'bad-type' });
        files.push({ name, buffer, ext });
      }
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(current);
      if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
        throw new HttpError(413, (t) => t.editor.pictures.tooMany({ max: LIMITS.imagesPerUpload }), {
          code: 'too-many',
        });
      }
      if (err instanceof HttpError) throw err;
      // Busboy's own errors (no boundary, a malformed part header, a body cut short) are the
      // sender's: a 400 that says so, never a 500.
      const status = (err as { statusCode?: number }).statusCode;
      if (status && status < 500) throw err;
      throw badRequest((t) => t.errors.malformedMultipart(), { code: 'malformed-multipart' });
    }
    if (files.length === 0) throw badRequest((t) => t.editor.pictures.noFiles(), { code: 'no-files' });

    // Only now, with every file accepted, is anything written.
    const saved = files.map((f) => ({ ...f, hash: pictureHashOf(f.buffer), size: f.buffer.length }));
    await db.transaction().execute((trx) =>
      savePictures(
        trx,
        saved.map((s) => ({ hash: s.hash, ext: s.ext, bytes: s.buffer })),
        { userId: user.id, at: Date.now() },
      ),
    );
    await audit(req, {
      chapter: 'projects',
      message: 'editor.log.picturesUploaded',
      params: { count: saved.length },
    });
    return saved.map((s) => ({
      url: pictureUrl(s.hash, s.ext),
      hash: s.hash,
      type: IMAGE_TYPES[s.ext],
      size: s.size,
      name: s.name,
    }));
  });

  // Public: the survey page shows these to respondents who are not signed in. Names are content
  // hashes, so a copy can never be stale: a strong ETag (the hash), cached for a year, and 304 for a
  // conditional request (a browser revalidating, a CDN).
  app.get<{ Params: { file: string } }>('/pictures/:file', async (req, reply) => {
    const m = PICTURE_NAME.exec(req.params.file);
    if (!m) throw notFound();
    const found = pictures.get(m[1], m[2] as ImageExt);
    const picture = found instanceof Promise ? await found : found;
    if (!picture) throw notFound();
    const etag = `"${m[1]}"`;
    reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('etag', etag)
      .header('content-disposition', 'inline')
      .type(IMAGE_TYPES[picture.ext]);
    if (etagMatches(req.headers['if-none-match'], etag)) return reply.status(304).send();
    // 64 KB at a time as the socket takes them (under 100 connections one write of 500 KB each
    // served half as many: tests/bench/pictures.bench.ts).
    reply.header('content-length', picture.bytes.length);
    return reply.send(Readable.from(picture.chunks, { objectMode: false }));
  });
}

/** If-None-Match against a strong ETag: `*`, or a list of tags compared weakly (RFC 9110 13.1.2). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
