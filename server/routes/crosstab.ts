import type { FastifyInstance } from 'fastify';
import { CrosstabQuery } from '../../src/domain/crosstab';
import { requireUser } from '../http/context';
import { conflict } from '../http/errors';
import { parse } from '../http/validate';
import { projectFor } from '../repos/projects';
import { loadContent } from '../repos/content';
import { readiness } from '../reports/report';
import { reportIsLarge } from '../reports/aggregate';
import { planCrosstab } from '../reports/crosstab';
import { contentDisposition } from '../reports/workbook';
import { contentIn, textLanguage } from '../reports/labels';

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
    const { content: stored } = await loadContent(db, p.id);
    // The texts in the reader's language when the questionnaire has it (or labels=), else the source.
    const content = contentIn(stored, textLanguage(stored, q.labels, req.locale));
    // Planned here, where a question that is not in the content is the caller's 400.
    const plan = planCrosstab(content, q.rows, q.cols);
    reply.header('cache-control', 'no-store');
    // Every format is made in a download thread (server/reports/download-threads.ts), the JSON of the
    // Compare section as the files: counting 100 000 respondents would otherwise hold the server's loop.
    const job = {
      kind: 'crosstab' as const,
      project: { id: p.id, name: p.name },
      content: stored,
      query: q,
      locale: req.locale,
    };
    if (q.format === 'json')
      return reply
        .type('application/json; charset=utf-8')
        .send(await app.downloads.json(job, () => reportIsLarge(db, p.id)));
    const file = app.downloads.start(job);
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
