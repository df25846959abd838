import type { FastifyInstance } from 'fastify';
import { can } from '../../src/domain/permissions';
import { REVIEW_STATUSES, ReviewSettingsBody } from '../../src/domain/reviewSettings';
import { audit } from '../http/audit';
import { requireUser } from '../http/context';
import { badRequest, conflict, forbidden, HttpError } from '../http/errors';
import { parse } from '../http/validate';
import { projectFor } from '../repos/projects';
import { loadContent, writeContent } from '../repos/content';

// POST /project/review-settings: the reviewers' fields of a project on moderation (DESIGN.md 5):
// block customParams and callbackUrl (project-editor.change-block-settings, logged as 009) and
// question customParams (question.change-custom-params, logged as 008), nothing else, against the
// version the reviewer saw (412 when someone saved in between). The rest of the content is kept
// exactly as stored.
export default async function reviewRoutes(app: FastifyInstance) {
  const { db } = app;

  app.post('/project/review-settings', async (req) => {
    const user = requireUser(req);
    const mayBlocks = can(user.role.id, 'project-editor.change-block-settings');
    const mayQuestions = can(user.role.id, 'question.change-custom-params');
    // The role first: a role with neither permission hears 403, whatever it sent.
    if (!mayBlocks && !mayQuestions) throw forbidden();
    const body = parse(ReviewSettingsBody, req.body);
    const p = await projectFor(db, user, body.pid, 'read');
    if ((body.blocks.length > 0 && !mayBlocks) || (body.questions.length > 0 && !mayQuestions))
      throw forbidden();
    if (!REVIEW_STATUSES.includes(p.status))
      throw conflict((t) => t.panels.review.notOnModeration(), { code: 'not-on-moderation' });

    const now = Date.now();
    const version = await db.transaction().execute(async (trx) => {
      const current = await loadContent(trx, p.id);
      const stale = () =>
        new HttpError(412, (t) => t.editor.save.stale({ version: current.version }), {
          code: 'stale',
          details: { version: current.version },
        });
      if (current.version !== body.version) throw stale();
      const content = structuredClone(current.content);
      const blocks = new Map(
        content.questionnaires.flatMap((qn) => qn.blocks.map((b) => [b.id, b] as const)),
      );
      const questions = new Map(
        content.questionnaires.flatMap((qn) =>
          qn.blocks.flatMap((b) => b.questions.map((q) => [q.id, q] as const)),
        ),
      );
      for (const [i, change] of body.blocks.entries()) {
        const b = blocks.get(change.id);
        if (!b)
          throw badRequest((t) => t.panels.review.unknownItem({ id: change.id }), {
            field: `blocks.${i}.id`,
          });
        if (change.customParams !== undefined) b.customParams = change.customParams;
        if (change.callbackUrl !== undefined) b.callbackUrl = change.callbackUrl;
      }
      for (const [i, change] of body.questions.entries()) {
        const q = questions.get(change.id);
        if (!q)
          throw badRequest((t) => t.panels.review.unknownItem({ id: change.id }), {
            field: `questions.${i}.id`,
          });
        q.customParams = change.customParams;
      }
      const written = await writeContent(trx, p.id, current.version, content, user.id, now);
      if (written === null) throw stale();
      await trx.updateTable('projects').set({ updated_at: now }).where('id', '=', p.id).execute();
      return written;
    });

    await audit(req, {
      chapter: 'projects',
      message: 'panels.log.reviewSaved',
      params: { name: p.name, blocks: body.blocks.length, questions: body.questions.length, version },
    });
    return { version };
  });
}
