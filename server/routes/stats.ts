import type { FastifyInstance } from 'fastify';
import { ReportQuery } from '../../src/domain/reports';
import { requireUser } from '../http/context';
import { conflict, HttpError } from '../http/errors';
import { parse } from '../http/validate';
import { projectWithVersion } from '../repos/projects';
import { loadContent } from '../repos/content';
import { readiness } from '../reports/report';
import { reportIsLarge } from '../reports/aggregate';
import { ReportTexts } from '../reports/report-cache';
import { CompressedBodies, sendJsonCompressed } from '../http/compressed';
import { sendDownload } from '../reports/send-download';
import { textLanguage } from '../reports/labels';

// GET /project/stats/file (spec section 7): the report of a project, type=json for the /report page
// or type=stats for the downloadable workbook (format=xlsx, the default, or csv). Whoever may read
// the project may read its report; anyone else gets the project's own refusal (404, as if it did not
// exist). The filters (gender, ageMin, ageMax, city, education, portrait) apply to both.

/** Downloads stream for seconds at 100 000 respondents; a few at once keep the database responsive. */
const MAX_EXPORTS = 4;

export default async function statsRoutes(app: FastifyInstance) {
  const { db } = app;
  let exporting = 0;
  const reports = new ReportTexts();
  const bodies = new CompressedBodies(16 * 1024 * 1024);

  app.get('/project/stats/file', async (req, reply) => {
    const me = requireUser(req);
    const q = parse(ReportQuery, req.query);
    const { project: p, content: current } = await projectWithVersion(db, me, q.pid);
    const ready = await readiness(db, p);

    if (q.type === 'json') {
      reply.header('cache-control', 'no-store');
      const stored = (await loadContent(db, p.id)).content;
      // The texts in the reader's language when the questionnaire has it (or labels=), else the source.
      const language = textLanguage(stored, q.labels, req.locale);
      // Made in a download thread (server/reports/download-threads.ts `json`): reading 100 000
      // respondents would otherwise hold the server's loop. The page's downloads use the same thread.
      const build = () =>
        app.downloads.json(
          {
            kind: 'report-json',
            project: p,
            ready,
            content: stored,
            textLanguage: language,
            query: q,
            locale: req.locale,
          },
          () => reportIsLarge(db, p.id),
        );
      // A final report is made once and kept, with its compressed bodies (server/reports/report-cache.ts).
      const key = ReportTexts.keyOf(p, current?.version ?? 0, req.locale, q);
      if (key === null) return reply.type('application/json; charset=utf-8').send(await build());
      const text = await reports.get(key, async () => (await build()).toString());
      return sendJsonCompressed(req, reply, bodies, key, () => text);
    }
    const { content } = await loadContent(db, p.id);
    // The downloads' labels: labels= (one of the questionnaire's languages), else the source.
    textLanguage(content, q.labels, null);

    if (!ready.available) throw conflict((t) => t.reports.errors.notReady(), { code: 'report-not-ready' });
    if (exporting >= MAX_EXPORTS)
      throw new HttpError(429, (t) => t.reports.errors.busy(), { headers: { 'retry-after': '30' } });
    // Written in a download thread (server/reports/download-threads.ts); nothing is sent before
    // its first bytes, so a failure up to then is a clean 500.
    const file = app.downloads.start({
      kind: 'report',
      project: p,
      ready,
      content,
      query: q,
      locale: req.locale,
    });
    exporting++;
    return sendDownload(req, reply, file, {
      name: p.name,
      format: q.format,
      what: 'report',
      finished: () => exporting--,
    });
  });
}
