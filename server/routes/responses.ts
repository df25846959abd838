import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  EraseBody,
  ExclusionBody,
  RESPONDENT_MANAGERS,
  RespondentQuery,
  RespondentsFileQuery,
  RespondentsQuery,
  respondentsFilterOf,
  type ExclusionResult,
  type RespondentDetail,
  type RespondentsPage,
} from '../../src/domain/responses';
import type { RoleId } from '../../src/domain/roles';
import { requireRole, requireUser } from '../http/context';
import { conflict, HttpError } from '../http/errors';
import { parse } from '../http/validate';
import { projectFor } from '../repos/projects';
import { readiness } from '../reports/report';
import { placeNamer } from '../reports/places';
import { sendDownload } from '../reports/send-download';
import { surveyContent } from '../survey/respond';
import { ensureJudged } from '../responses/backfill';
import { contentIn, textLanguage } from '../reports/labels';
import { respondentDetail } from '../responses/detail';
import { listRespondents } from '../responses/list';
import { setExclusion, targets } from '../responses/exclusion';
import { eraseRespondent } from '../responses/erasure';
import { foldLater, foldLeftovers, foldsDone } from '../reports/counter-shift';

// Respondents one by one (issue 31; docs/api.md, docs/decisions/responses.md). Reading them is
// reading the report: whoever may read the project, while its numbers may be shown (readiness).
// Excluding, restoring and erasing: the Administrator and the researchers of the project's
// organization. A project the caller may not see answers 404; an id that is not the project's 400.

/** List downloads at once (they stream for seconds at 100 000 respondents). */
const MAX_LIST_EXPORTS = 2;

export default async function responsesRoutes(app: FastifyInstance) {
  const { db } = app;
  let exporting = 0;
  const logFold = (err: unknown) => app.log.error({ err }, 'counter deltas could not be folded');
  // Deltas of exclusions a stopped process had not folded yet (still counted meanwhile).
  app.addHook('onReady', async () => {
    void foldLeftovers(db, logFold);
  });
  app.addHook('onClose', async () => foldsDone(db));
  // A fold's steps each hold the event loop for a moment (SQLite): the fold starts once the caller
  // has had the answer, not between the answer's writes (an exclusion of 10 000 otherwise reached
  // its caller some hundreds of ms later, behind the fold's first steps).
  const answered = (reply: FastifyReply) =>
    new Promise<void>((resolve) => reply.raw.once('close', () => setTimeout(resolve, 20)));

  /** The project the caller reads respondents of, with its content and the flags of older respondents. */
  async function readable(req: FastifyRequest, pid: number) {
    const me = requireUser(req);
    const p = await projectFor(db, me, pid, 'read');
    const ready = await readiness(db, p);
    if (!ready.available) throw conflict((t) => t.reports.errors.notReady(), { code: 'report-not-ready' });
    const content = await surveyContent(db, p.id);
    await ensureJudged(db, p.id, content);
    return { me, p, content };
  }

  /** The project the caller changes respondents of (the role first: a role that never may hears 403). */
  async function manageable(req: FastifyRequest, pid: number) {
    const me = requireRole(req, ...(RESPONDENT_MANAGERS as RoleId[]));
    const p = await projectFor(db, me, pid, 'read');
    const content = await surveyContent(db, p.id);
    return { me, p, content };
  }

  app.get('/project/respondents', async (req, reply): Promise<RespondentsPage> => {
    requireUser(req);
    const q = parse(RespondentsQuery, req.query);
    const { p, content } = await readable(req, q.pid);
    reply.header('cache-control', 'no-store');
    return listRespondents(db, p.id, q, content, req.t, placeNamer(req.locale));
  });

  app.get('/project/respondent', async (req, reply): Promise<RespondentDetail> => {
    requireUser(req);
    const q = parse(RespondentQuery, req.query);
    const { p, content } = await readable(req, q.pid);
    reply.header('cache-control', 'no-store');
    // The question and answer texts in the reader's language when the questionnaire has it, as the
    // report's (issue 32); the answers are stored by id, whatever language the respondent answered in.
    const texts = contentIn(content, textLanguage(content, undefined, req.locale));
    return respondentDetail(db, p.id, q.id, texts, req.t, placeNamer(req.locale));
  });

  app.post('/project/respondents/exclusion', async (req, reply): Promise<ExclusionResult> => {
    requireRole(req, ...(RESPONDENT_MANAGERS as RoleId[]));
    const body = parse(ExclusionBody, req.body);
    const { me, p, content } = await manageable(req, body.pid);
    await ensureJudged(db, p.id, content);
    const candidates = await targets(
      db,
      p.id,
      body.ids ? { ids: body.ids } : { filter: body.filter! },
      content,
    );
    const result = await setExclusion(req, db, {
      projectId: p.id,
      candidates,
      byIds: body.ids !== undefined,
      excluded: body.excluded,
      reason: body.reason,
      user: me,
      content,
    });
    void foldLater(db, p.id, logFold, answered(reply));
    return result;
  });

  app.delete('/project/respondent', async (req, reply) => {
    requireRole(req, ...(RESPONDENT_MANAGERS as RoleId[]));
    const body = parse(EraseBody, req.body);
    const { me, p, content } = await manageable(req, body.pid);
    await eraseRespondent(req, db, { projectId: p.id, id: body.id, user: me, content });
    void foldLater(db, p.id, logFold, answered(reply));
    return reply.status(204).send();
  });

  app.get('/project/respondents/file', async (req, reply) => {
    requireUser(req);
    const q = parse(RespondentsFileQuery, req.query);
    const { p, content } = await readable(req, q.pid);
    if (exporting >= MAX_LIST_EXPORTS)
      throw new HttpError(429, (t) => t.reports.errors.busy(), { headers: { 'retry-after': '30' } });
    const file = app.downloads.start({
      kind: 'respondents',
      project: p,
      content,
      filter: respondentsFilterOf(q),
      format: q.format,
      locale: req.locale,
    });
    exporting++;
    return sendDownload(req, reply, file, {
      // Not the report's name: both downloads of a project would be saved as one file.
      name: req.t.responses.download.fileName({ project: p.name }),
      format: q.format,
      what: 'respondents',
      finished: () => exporting--,
    });
  });
}
