import type { EventEmitter } from 'node:events';
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Db } from '../db';
import type { TranslationFunctions } from '../../src/i18n/i18n-types';
import type { ProjectContent } from '../../src/domain/content/model';
import type { ReportJson, ReportQuestion } from '../../src/domain/reports';
import { rawRows, type Cell, type ReportFile } from './respondent-rows';

// The downloadable report (type=stats): an XLSX written by ExcelJS's streaming WorkbookWriter, or a
// CSV. The summary sheets come from the same shaped report as the JSON; the raw sheet (one row per
// respondent, respondent-rows.ts) is written row by row, so memory stays bounded however many
// respondents there are.

/**
 * How much of the raw sheet's XML may wait for the zip's deflate (or for a slow reader behind it)
 * before the writer stops reading rows: a few pages of rows at 20 questions, a few milliseconds of
 * deflate.
 */
const SHEET_BACKLOG = 1024 * 1024;
const ZIP_BUFFER = 16 * 1024;
/**
 * A reader that takes nothing for this long is gone (a connection dropped without a word, a client
 * that stopped reading): the download ends and frees its export slot rather than wait for ever.
 */
export const READER_GONE_MS = 60_000;

/** The download's reader went away before the end; not a failure of ours. */
export class DownloadAborted extends Error {
  override readonly name = 'DownloadAborted';
}

/** The summary rows of one question, as the JSON report gives it. */
export function summaryRows(q: ReportQuestion, t: TranslationFunctions): Cell[][] {
  const f = t.reports.file;
  const rows: Cell[][] = [[`${q.number}. ${q.text}`], [f.category(), t.common.categories[q.category]()]];
  rows.push([f.answered(), q.answered], []);
  if (q.answers) {
    rows.push([f.answer(), f.count(), f.percent()]);
    for (const a of q.answers) rows.push([a.text, a.count, a.percent]);
    if (q.other) rows.push([f.other(), q.other.count, q.other.percent]);
  }
  if (q.matrix) {
    const columns = q.matrix[0]?.cells ?? [];
    rows.push([f.statement(), f.answered(), ...columns.map((c) => c.text)]);
    for (const s of q.matrix) rows.push([s.text, s.answered, ...s.cells.map((c) => c.count)]);
  }
  if (q.ranks) {
    rows.push([f.answer(), f.meanRank(), f.count()]);
    for (const r of q.ranks) rows.push([r.text, r.meanRank, r.count]);
  }
  if (q.numbers) {
    rows.push([f.mean(), q.numbers.mean], [f.median(), q.numbers.median]);
    rows.push([f.min(), q.numbers.min], [f.max(), q.numbers.max]);
    if (q.nps) {
      rows.push([f.npsScore(), q.nps.score], [f.promoters(), q.nps.promoters]);
      rows.push([f.passives(), q.nps.passives], [f.detractors(), q.nps.detractors]);
    }
    rows.push([], [f.value(), f.count()]);
    for (const d of q.numbers.distribution) rows.push([d.value, d.count]);
  }
  if (q.places) {
    rows.push([f.answer(), f.count(), f.percent()]);
    for (const p of q.places) rows.push([p.name, p.count, p.percent]);
  }
  return rows;
}

function overviewRows(report: ReportJson, t: TranslationFunctions): Cell[][] {
  const f = t.reports.file;
  const r = report.respondents;
  const rows: Cell[][] = [
    [f.project(), report.project.name],
    [f.generatedAt(), new Date(report.generatedAt).toISOString()],
    [],
    [f.respondents.started(), r.started],
    [f.respondents.completed(), r.completed],
    [f.respondents.screenedOut(), r.screenedOut],
  ];
  const fl = report.filters;
  const filters: [string, Cell][] = [];
  if (fl.gender) filters.push([f.columns.gender(), fl.gender]);
  if (fl.ageMin !== undefined) filters.push([f.ageMin(), fl.ageMin]);
  if (fl.ageMax !== undefined) filters.push([f.ageMax(), fl.ageMax]);
  if (fl.city) filters.push([f.columns.city(), fl.city]);
  if (fl.education) filters.push([f.columns.education(), fl.education]);
  if (fl.portrait) filters.push([f.columns.portrait(), fl.portrait]);
  if (fl.language) filters.push([f.columns.language(), fl.language]);
  if (filters.length > 0) rows.push([], [f.filters()], ...filters);
  if (report.languages.length > 1) rows.push([], [f.labels(), report.textLanguage]);
  return rows;
}

/** Excel's sheet names: at most 31 characters, none of []:*?/\ and unique in the workbook. */
function sheetName(wanted: string, taken: Set<string>): string {
  const clean =
    wanted
      .replace(/[[\]:*?/\\]/g, ' ')
      .replace(/^'+|'+$/g, '')
      .trim() || 'Sheet';
  let name = clean.slice(0, 31);
  for (let i = 2; taken.has(name.toLowerCase()); i++)
    name = `${clean.slice(0, 31 - String(i).length - 1)}~${i}`;
  taken.add(name.toLowerCase());
  return name;
}

export async function writeXlsx(
  out: Writable,
  db: Db,
  report: ReportFile,
  content: ProjectContent,
  t: TranslationFunctions,
  placeName?: (id: string) => string,
  readerGoneMs = READER_GONE_MS,
): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: false,
    useSharedStrings: false,
    // The zip keeps a stream's usual 16 KB for a reader slower than deflate (archiver's default of
    // 1 MB is ≈ 7 MB of XML read ahead); archiver takes stream options beside its zip options,
    // which ExcelJS's types leave out.
    zip: { highWaterMark: ZIP_BUFFER } as Partial<ExcelJS.stream.xlsx.ArchiverZipOptions>,
  });
  const taken = new Set<string>();
  const add = (name: string, rows: Cell[][]) => {
    const ws = wb.addWorksheet(sheetName(name, taken));
    for (const row of rows) ws.addRow(row).commit();
    ws.commit();
  };
  // The respondents list's download is its rows alone: the report's sheets count other respondents.
  if (!report.rows?.list) {
    add(t.reports.file.summary(), overviewRows(report, t));
    for (const q of report.questions) add(`${q.number}. ${q.text}`, summaryRows(q, t));
  }
  const raw = wb.addWorksheet(sheetName(t.reports.file.respondentsSheet(), taken));
  const backlog = sheetBacklog(raw);
  for await (const row of rawRows(
    db,
    report.project.id,
    content,
    report.filters,
    t,
    placeName,
    report.rows,
  )) {
    // The caller went away (closed the tab, cancelled): stop reading the database.
    if (out.destroyed) throw new DownloadAborted();
    raw.addRow(row).commit();
    if (backlog && backlog.waiting() > SHEET_BACKLOG) await drained(backlog.stream, out, readerGoneMs);
  }
  raw.commit();
  await wb.commit();
}

interface Backlog {
  /** Bytes of the sheet's XML written and not yet taken by the zip's deflate. */
  waiting: () => number;
  /** Emits 'drain' once the zip has taken all of it. */
  stream: EventEmitter;
}

/**
 * ExcelJS 4.4's WorkbookWriter hands a sheet's XML to the zip (archiver) through its own StreamBuf,
 * whose write() always says "go on" and which writes into the PassThrough archiver reads the entry
 * from without looking at its answer either. So nothing tells the writer to wait: when rows come
 * faster than deflate (or the reader) takes them, the XML piles up in that PassThrough. On SQLite it
 * all piles up: better-sqlite3 reads synchronously, so the loop over the pages never gives the event
 * loop a turn, deflate's results never come back, and the whole sheet's XML (≈ 140 MB at 100 000
 * respondents × 20 questions) sat in memory while the server answered nothing else for the whole
 * export; PostgreSQL's network reads gave deflate its turns. Watching that PassThrough is the
 * backpressure ExcelJS does not pass on: a slow reader stops deflate (archiver pipes into `out`),
 * deflate stops taking XML, and the writer waits here. Null if a later ExcelJS lays this out
 * otherwise; tests/server/stats-download.test.ts then fails (a stalled reader no longer stalls the
 * reads).
 */
function sheetBacklog(ws: ExcelJS.Worksheet): Backlog | null {
  const entry = (ws as unknown as { stream?: { pipes?: unknown[] } }).stream?.pipes?.[0] as
    (Writable & { _writableState?: { length?: number } }) | undefined;
  const state = entry?._writableState;
  if (!entry || typeof entry.once !== 'function' || typeof state?.length !== 'number') return null;
  return { waiting: () => state.length ?? 0, stream: entry };
}

/**
 * Resolves on `source`'s next 'drain'; rejects with DownloadAborted when `out` closes first (the
 * reader went away) or when nothing drains for `goneMs` (the reader stopped taking anything).
 */
export function drained(source: EventEmitter, out: Writable, goneMs: number): Promise<void> {
  if (out.destroyed) return Promise.reject(new DownloadAborted());
  return new Promise<void>((resolve, reject) => {
    const done = (err?: Error) => {
      clearTimeout(timer);
      source.off('drain', onDrain);
      out.off('close', onClose);
      if (err) reject(err);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(new DownloadAborted());
    const timer = setTimeout(() => done(new DownloadAborted()), goneMs);
    source.once('drain', onDrain);
    out.once('close', onClose);
  });
}

/** A CSV cell: quoted when needed; text that a spreadsheet would run as a formula starts with '. */
export function csvCell(c: Cell): string {
  if (c === null) return '';
  if (typeof c === 'number') return String(c);
  const safe = /^[=+\-@\t\r]/.test(c) ? `'${c}` : c;
  return /[",\r\n;]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export async function writeCsv(
  out: Writable,
  db: Db,
  report: ReportFile,
  content: ProjectContent,
  t: TranslationFunctions,
  placeName?: (id: string) => string,
  readerGoneMs = READER_GONE_MS,
): Promise<void> {
  // The byte order mark makes Excel read the file as UTF-8 (Cyrillic stays readable).
  let chunk = '\uFEFF';
  for await (const row of rawRows(
    db,
    report.project.id,
    content,
    report.filters,
    t,
    placeName,
    report.rows,
  )) {
    chunk += row.map(csvCell).join(',') + '\r\n';
    if (chunk.length > 64 * 1024) {
      if (out.destroyed) throw new DownloadAborted();
      if (!out.write(chunk)) await drained(out, out, readerGoneMs);
      chunk = '';
    }
  }
  out.end(chunk);
}

/** Content-Disposition for a download named after the project (RFC 6266 with RFC 5987 for any script). */
export function contentDisposition(projectName: string, ext: string): string {
  const base =
    projectName
      .replace(/[\\/:*?"<>|]/g, '_')
      .replace(/\p{Cc}/gu, '_')
      .trim()
      .slice(0, 150) || 'report';
  const name = `${base}.${ext}`;
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/[%"\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
