import type { Writable } from 'node:stream';
import type { Db } from '../db';
import type { ProjectRow } from '../repos/projects';
import type { ProjectContent } from '../../src/domain/content/model';
import type { CrosstabQuery } from '../../src/domain/crosstab';
import { filtersOf, type ReportQuery } from '../../src/domain/reports';
import { languageName } from '../../src/domain/content/languages';
import type { Locales } from '../../src/i18n/i18n-types';
import { translator } from '../http/i18n';
import { buildReport, type Readiness } from './report';
import { placeNamer } from './places';
import { buildCrosstab, planCrosstab } from './crosstab';
import { crosstabCsv, crosstabXlsx } from './crosstab-file';
import { writeCsv, writeXlsx } from './workbook';
import type { RespondentsFilter } from '../../src/domain/responses';
import { listFile } from '../responses/list-file';
import { writeSav } from './sav/survey';
import { contentIn, textLanguage } from './labels';

// What a download is and how it is written, wherever it runs (docs/decisions/reports.md, "No stall
// in any download"): the route checks who asks, whether the report may be read and the query, then
// hands this description to a download thread (download-threads.ts), which runs `writeDownload` on
// a database connection of its own and streams the bytes back. The /report page's JSON (the report
// and the Compare table) is written the same way, as text (download-threads.ts `json`). The
// description is plain data (it is copied to the thread), so it carries the route's parsed query
// whole: a parameter the query gains reaches the writers here without another change to the plumbing.

export type DownloadJob =
  | {
      kind: 'report';
      project: NonNullable<ProjectRow>;
      ready: Readiness;
      content: ProjectContent;
      /** GET /project/stats/file's query (type=stats). */
      query: ReportQuery;
      locale: Locales;
    }
  | {
      /** GET /project/respondents/file: the respondents list's rows (issue 31). */
      kind: 'respondents';
      project: NonNullable<ProjectRow>;
      content: ProjectContent;
      filter: RespondentsFilter;
      format: 'xlsx' | 'csv';
      locale: Locales;
    }
  | {
      /** GET /project/stats/file?type=json: the /report page's report. */
      kind: 'report-json';
      project: NonNullable<ProjectRow>;
      ready: Readiness;
      /** The stored content, and the language its texts are shown in (checked by the route). */
      content: ProjectContent;
      textLanguage: string;
      query: ReportQuery;
      locale: Locales;
    }
  | {
      kind: 'crosstab';
      project: { id: number; name: string };
      content: ProjectContent;
      /** GET /project/stats/crosstab's query (format=json, xlsx or csv; the route has planned it). */
      query: CrosstabQuery;
      locale: Locales;
    };

/** Writes the file a job describes to `out`, reading `db`; ends `out` when the file is whole. */
export async function writeDownload(job: DownloadJob, db: Db, out: Writable): Promise<void> {
  const t = translator(job.locale);
  const placeName = placeNamer(job.locale);
  if (job.kind === 'report') {
    const q = job.query;
    // Labels in labels= (checked by the route), else the source language (issue 32).
    const labels = textLanguage(job.content, q.labels, null);
    const content = contentIn(job.content, labels);
    const report = await buildReport(db, job.project, {
      textLanguage: labels,
      filters: filtersOf(q),
      openPage: 1,
      openPageSize: 1,
      lists: false,
      ready: job.ready,
      content,
      locale: job.locale,
    });
    const write = q.format === 'csv' ? writeCsv : q.format === 'sav' ? writeSav : writeXlsx;
    const rows = { excluded: q.includeExcluded === '1' ? ('all' as const) : ('none' as const) };
    return write(out, db, { ...report, rows }, content, t, placeName);
  }
  if (job.kind === 'report-json') {
    const q = job.query;
    const report = await buildReport(db, job.project, {
      filters: filtersOf(q),
      openQuestion: q.openQuestion,
      openPage: q.openPage,
      openPageSize: q.openPageSize,
      textSearch: q.textSearch,
      ready: job.ready,
      content: contentIn(job.content, job.textLanguage),
      textLanguage: job.textLanguage,
      locale: job.locale,
    });
    return endWith(out, Buffer.from(JSON.stringify(report)));
  }
  if (job.kind === 'respondents') {
    const file = listFile(job.project, job.content, job.filter);
    return (job.format === 'csv' ? writeCsv : writeXlsx)(out, db, file, job.content, t, placeName);
  }
  const q = job.query;
  // The table's file speaks as the table on the page: labels=, else the reader's language if the
  // questionnaire has it, else the source.
  const content = contentIn(job.content, textLanguage(job.content, q.labels, job.locale));
  const plan = planCrosstab(content, q.rows, q.cols);
  const table = await buildCrosstab(db, job.project, content, plan, filtersOf(q), {
    t,
    placeName,
    languageName: (code) => languageName(code, job.locale),
  });
  const file =
    q.format === 'json'
      ? Buffer.from(JSON.stringify(table))
      : q.format === 'csv'
        ? Buffer.from(crosstabCsv(table, t))
        : await crosstabXlsx(table, t);
  return endWith(out, file);
}

/** Writes a file made whole in memory, and ends `out`. */
function endWith(out: Writable, file: Buffer): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    out.once('error', reject);
    out.end(file, resolve);
  });
}
