import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { can } from '../../src/domain/permissions';
import { Role } from '../../src/domain/roles';
import {
  PidQuery,
  SaveProjectBody,
  countQuestions,
  type ProjectContent,
} from '../../src/domain/content/model';
import { checkContent } from '../../src/domain/content/rules';
import { blocksSave, type Problem } from '../../src/domain/content/problems';
import { refusedFor } from '../http/content-problems';
import { IMAGE_TYPES, LIMITS, pictureHash, pictureUrl, type ImageExt } from '../../src/domain/content/limits';
import { audit } from '../http/audit';
import { requireRole, requireUser } from '../http/context';
import { badRequest, forbidden, HttpError, notFound } from '../http/errors';
import { fieldError, parse } from '../http/validate';
import { sourceLanguageChanged } from '../../src/domain/content/languages';
import { CompressedBodies, sendJsonCompressed } from '../http/compressed';
import { canWriteProject, isEditable, projectFor, projectWithVersion } from '../repos/projects';
import { loadContent, loadContentJson, missingPictures, writeContent } from '../repos/content';

// The questionnaire content of a project (spec section 7): GET /project answers it with its version
// as the ETag; POST /project saves it only with If-Match naming the version it replaces (428
// without, 412 with the server's current version and content when someone saved in between), in
// an editable status, for a role that may, after the same rules the editor runs. POST /picture
// takes multipart `images` parts; pictures are kept under DATA_DIR/uploads by content hash and
// served publicly at GET /pictures/<sha256>.<ext> (respondents see them), cached for a year.

/** A 1 000-question project is about 0.7 MB of JSON; the limits allow far more. */
const SAVE_BODY_LIMIT = 16 * 1024 * 1024;
const PICTURE_NAME = /^([0-9a-f]{64})\.(jpg|png|webp|gif)$/;

/** The version an If-Match header names: `"12"`, `W/"12"` or `12`; null when absent, NaN when unreadable. */
function ifMatchVersion(req: FastifyRequest): number | null {
  const raw = req.headers['if-match'];
  if (raw === undefined || raw === '') return null;
  const m = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(String(raw));
  return m ? Number(m[1]) : Number.NaN;
}

const etag = (version: number) => `"${version}"`;

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

/** The server's own check: pictures must be ones uploaded here (the rules check the shape of the reference). */
async function pictureProblems(req: FastifyRequest, content: ProjectContent): Promise<Problem[]> {
  const refs: { hash: string; path: string; answer: boolean }[] = [];
  content.questionnaires.forEach((qn, i) =>
    qn.blocks.forEach((b, j) =>
      b.questions.forEach((q, k) => {
        const base = `questionnaires.${i}.blocks.${j}.questions.${k}`;
        const h = q.picture && pictureHash(q.picture);
        if (h) refs.push({ hash: h, path: base, answer: false });
        q.answers.forEach((a, m) => {
          const ah = a.picture && pictureHash(a.picture);
          if (ah) refs.push({ hash: ah, path: `${base}.answers.${m}`, answer: true });
        });
      }),
    ),
  );
  const missing = await missingPictures(
    req.server.db,
    refs.map((r) => r.hash),
  );
  return refs
    .filter((r) => missing.has(r.hash))
    .map((r) => ({
      rule: r.answer ? 'answerPicture' : 'questionPicture',
      code: r.answer ? 40518 : 40516,
      severity: 'error',
      path: r.path,
    }));
}

/** Changes of the fields that only some roles may touch (spec section 6), compared by item id with the stored copy. */
function forbiddenChange(user: { role: { id: number } }, before: ProjectContent, after: ProjectContent) {
  const mayCustomParams = can(user.role.id, 'question.change-custom-params');
  const mayBlockSettings = can(user.role.id, 'project-editor.change-block-settings');
  if (mayCustomParams && mayBlockSettings) return null;
  const oldBlocks = new Map<string, { customParams: string; callbackUrl: string }>();
  const oldQuestions = new Map<string, string>();
  for (const qn of before.questionnaires)
    for (const b of qn.blocks) {
      oldBlocks.set(b.id, b);
      for (const q of b.questions) oldQuestions.set(q.id, q.customParams);
    }
  for (const qn of after.questionnaires)
    for (const b of qn.blocks) {
      const old = oldBlocks.get(b.id) ?? { customParams: '', callbackUrl: '' };
      if (!mayBlockSettings && (b.customParams !== old.customParams || b.callbackUrl !== old.callbackUrl))
        return 'blockSettingsForbidden' as const;
      if (!mayCustomParams)
        for (const q of b.questions)
          if (q.customParams !== (oldQuestions.get(q.id) ?? '')) return 'customParamsForbidden' as const;
    }
  return null;
}

export default async function contentRoutes(app: FastifyInstance) {
  const { db } = app;
  const bodies = new CompressedBodies();
  const uploads = path.join(app.config.dataDir, 'uploads');
  fs.mkdirSync(uploads, { recursive: true });

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

  app.get('/project', async (req, reply) => {
    const user = requireUser(req);
    const { pid } = parse(PidQuery, req.query);
    const { project: p, content } = await projectWithVersion(db, user, pid);
    const stored = await loadContentJson(db, pid, content);
    const head = JSON.stringify({
      pid: p.id,
      name: p.name,
      type: p.type,
      template: p.template,
      status: p.status,
      editable: canWriteProject(user, p) && isEditable(p),
      permissions: {
        blockSettings: can(user.role.id, 'project-editor.change-block-settings'),
        customParams: can(user.role.id, 'question.change-custom-params'),
      },
      version: stored.version,
      updatedAt: stored.updatedAt,
    });
    // The content's text as it is (loadContentJson), spliced in as the last field; compressed once
    // per version and head (who asks decides `editable` and `permissions`), not on every call.
    reply.header('etag', etag(stored.version)).header('cache-control', 'no-store');
    return sendJsonCompressed(
      req,
      reply,
      bodies,
      `${pid}:${head}`,
      () => `${head.slice(0, -1)},"content":${stored.json}}`,
    );
  });

  app.post('/project', { bodyLimit: SAVE_BODY_LIMIT }, async (req, reply) => {
    const user = requireUser(req);
    const body = parse(SaveProjectBody, req.body);
    const p = await projectFor(db, user, body.pid, 'edit');
    const base = ifMatchVersion(req);
    if (base === null)
      throw new HttpError(428, (t) => t.editor.save.preconditionRequired(), {
        code: 'precondition-required',
      });
    if (Number.isNaN(base))
      throw badRequest((t) => t.editor.save.badIfMatch(), { code: 'bad-if-match', field: 'If-Match' });

    const problems = [
      ...checkContent(body.content, { projectType: p.type }),
      ...(await pictureProblems(req, body.content)),
    ];
    const errors = blocksSave(problems);
    if (errors.length > 0) throw refusedFor(errors);

    const now = Date.now();
    const version = await db.transaction().execute(async (trx) => {
      const current = await loadContent(trx, p.id);
      const stale = () =>
        new HttpError(412, (t) => t.editor.save.stale({ version: current.version }), {
          code: 'stale',
          headers: { etag: etag(current.version) },
          details: { version: current.version, updatedAt: current.updatedAt, content: current.content },
        });
      if (current.version !== base) throw stale();
      if (sourceLanguageChanged(current.content, body.content))
        throw fieldError([{ field: 'content.languages', key: 'sourceLanguageRemoved', params: {} }], {
          code: 'source-language',
        });
      const refused = forbiddenChange(user, current.content, body.content);
      if (refused) throw forbidden((t) => t.editor.save[refused]());
      const written = await writeContent(trx, p.id, base, body.content, user.id, now, current.content);
      // Someone saved between our read and our write: the conditional write refused, so answer as stale.
      if (written === null) throw stale();
      await trx.updateTable('projects').set({ updated_at: now }).where('id', '=', p.id).execute();
      return written;
    });

    await audit(req, {
      chapter: 'projects',
      message: 'editor.log.saved',
      params: { name: p.name, version, pid: p.id },
    });
    reply.header('etag', etag(version));
    return { version, updatedAt: now, questions: countQuestions(body.content), problems };
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
    const now = Date.now();
    const saved: { hash: string; ext: ImageExt; size: number; name: string }[] = [];
    for (const f of files) {
      const hash = crypto.createHash('sha256').update(f.buffer).digest('hex');
      const target = path.join(uploads, `${hash}.${f.ext}`);
      if (!fs.existsSync(target)) {
        const temp = `${target}.${crypto.randomBytes(6).toString('hex')}.tmp`;
        await fs.promises.writeFile(temp, f.buffer, { flag: 'wx' });
        await fs.promises.rename(temp, target);
      }
      saved.push({ hash, ext: f.ext, size: f.buffer.length, name: f.name });
    }
    await db.transaction().execute(async (trx) => {
      for (const s of saved) {
        await trx
          .insertInto('pictures')
          .values({ hash: s.hash, ext: s.ext, size: s.size, created_at: now, created_by: user.id })
          .onConflict((oc) => oc.column('hash').doNothing())
          .execute();
      }
    });
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
  // hashes, so a cached copy can never be stale.
  app.get<{ Params: { file: string } }>('/pictures/:file', async (req, reply) => {
    const m = PICTURE_NAME.exec(req.params.file);
    if (!m) throw notFound();
    const file = path.join(uploads, req.params.file);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat?.isFile()) throw notFound();
    reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('etag', `"${m[1]}"`)
      .header('content-disposition', 'inline')
      .type(IMAGE_TYPES[m[2] as ImageExt]);
    if (req.headers['if-none-match'] === `"${m[1]}"`) return reply.status(304).send();
    reply.header('content-length', stat.size);
    return reply.send(fs.createReadStream(file));
  });
}
