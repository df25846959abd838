import type { FastifyInstance, FastifyRequest } from 'fastify';
import { can } from '../../src/domain/permissions';
import {
  PidQuery,
  SaveProjectBody,
  countQuestions,
  type ProjectContent,
} from '../../src/domain/content/model';
import { checkContent } from '../../src/domain/content/rules';
import { blocksSave, type Problem } from '../../src/domain/content/problems';
import { refusedFor } from '../http/content-problems';
import { pictureHash } from '../../src/domain/content/limits';
import { audit } from '../http/audit';
import { requireUser } from '../http/context';
import { badRequest, forbidden, HttpError } from '../http/errors';
import { fieldError, parse } from '../http/validate';
import { sourceLanguageChanged } from '../../src/domain/content/languages';
import { CompressedBodies, sendJsonCompressed } from '../http/compressed';
import { canWriteProject, isEditable, projectFor, projectWithVersion } from '../repos/projects';
import { loadContent, loadContentJson, missingPictures, writeContent } from '../repos/content';

// The questionnaire content of a project (spec section 7): GET /project answers it with its version
// as the ETag; POST /project saves it only with If-Match naming the version it replaces (428
// without, 412 with the server's current version and content when someone saved in between), in
// an editable status, for a role that may, after the same rules the editor runs. Pictures have
// their own routes (./pictures.ts).

/** A 1 000-question project is about 0.7 MB of JSON; the limits allow far more. */
const SAVE_BODY_LIMIT = 16 * 1024 * 1024;

/** The version an If-Match header names: `"12"`, `W/"12"` or `12`; null when absent, NaN when unreadable. */
function ifMatchVersion(req: FastifyRequest): number | null {
  const raw = req.headers['if-match'];
  if (raw === undefined || raw === '') return null;
  const m = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(String(raw));
  return m ? Number(m[1]) : Number.NaN;
}

const etag = (version: number) => `"${version}"`;

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
}
