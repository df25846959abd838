import type { FastifyInstance } from 'fastify';
import { CrosstabQuery } from '../../src/domain/crosstab';
import { filtersOf } from '../../src/domain/reports';
import { requireUser } from '../http/context';
import { conflict } from '../http/errors';
import { parse } from '../http/validate';
import { projectFor } from '../repos/projects';
import { loadContent } from '../repos/content';
import { readiness } from '../reports/report';
import { placeNamer } from '../reports/places';
import { buildCrosstab, planCrosstab } from '../reports/crosstab';
import { contentDisposition } from '../reports/workbook';

// GET /project/stats/crosstab (issue 23): one question (or matrix statement) against a single-choice
// question or a respondent attribute, with the report's filters, as JSON for the /report page's
// Compare section or as a small XLSX or CSV (format=). Read exactly as the report is: whoever may read
// the project, when its report may be read (the same 404 and 409 as GET /project/stats/file).

export default async function crosstabRoutes(app: FastifyInstance) {
  const { db } = app;
  app.get('/project/stats/crosstab', async (req, reply) => {
    const me = requireUser(req);
    const q = parse(CrosstabQuery, req.query);
    const p = await projectFor(db, me, q.pid, 'read');
    const ready = await readiness(db, p);
    if (!ready.available) throw conflict((t) => t.reports.errors.notReady(), { code: 'report-not-ready' });
    const { content } = await loadContent(db, p.id);
    const plan = planCrosstab(content, q.rows, q.cols);
    reply.header('cache-control', 'no-store');
    if (q.format === 'json')
      return buildCrosstab(db, { id: p.id, name: p.name }, content, plan, filtersOf(q), {
        t: req.t,
        placeName: placeNamer(req.locale),
      });
    // The file is built in a download thread (server/reports/download-threads.ts) and sent whole.
    const file = app.downloads.start({
      kind: 'crosstab',
      project: { id: p.id, name: p.name },
      content,
      query: q,
      locale: req.locale,
    });
    const bytes = await file.toArray();
    await file.done;
    const name = `${p.name} - ${plan.number}`;
    reply.header('content-disposition', contentDisposition(name, q.format));
    if (q.format === 'csv') return reply.type('text/csv; charset=utf-8').send(Buffer.concat(bytes));
    return reply
      .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .send(Buffer.concat(bytes));
  });
}
