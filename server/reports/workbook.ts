import type { EventEmitter } from 'node:events';
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { dialectOf, type Db } from '../db';
import type { TranslationFunctions } from '../../src/i18n/i18n-types';
import type { ProjectContent, Question } from '../../src/domain/content/model';
import type { ReportFilters, ReportJson, ReportQuestion } from '../../src/domain/reports';
import { EDUCATION_LEVELS, GENDERS } from '../../src/domain/lookups';
import { sourceLanguage } from '../../src/domain/content/languages';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import { whereFilters } from './answer-rows';
import type { ExcludedMode, RespondentsFilter } from '../../src/domain/responses';
import { flagNames } from '../../src/domain/quality';
import { whereListFilter } from '../responses/filter';
import { OTHER_ANSWER_ID, questionsOf } from './shape';
import { heapGuard } from './heap';

// The downloadable report (type=stats): an XLSX written by ExcelJS's streaming WorkbookWriter, or a
// CSV. The summary sheets come from the same shaped report as the JSON; the raw sheet (one row per
// respondent, a column per question, and per answer for multiple choice) is read from the database
// in pages of BATCH respondents by id, each page's answers in one query, and written row by row, so
// memory stays bounded however many respondents there are.

const BATCH = 500;

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

type Cell = string | number | null;
interface Column {
  header: string;
  /** Fills this column from one respondent's answer rows to its question. */
  read: (rows: AnswerRow[]) => Cell;
  questionId?: string;
}
export interface AnswerRow {
  question_id: string;
  answer_id: string | null;
  statement_id: string | null;
  value: number | null;
  text: string | null;
}

function answerText(q: Question, id: string | null): string | null {
  return q.answers.find((a) => a.id === id)?.text ?? null;
}

/** The raw sheet's columns for one question. */
function questionColumns(
  q: Question,
  n: number,
  t: TranslationFunctions,
  placeName: (id: string) => string,
): Column[] {
  const title = `${n}. ${q.text}`;
  const one = (read: Column['read']): Column[] => [{ header: title, read, questionId: q.id }];
  const isOther = (r: AnswerRow) => r.answer_id === null || r.answer_id === OTHER_ANSWER_ID;
  switch (q.category) {
    case 'oneAnswer':
    case 'screening':
    case 'qualification':
      return one((rows) => {
        const r = rows[0];
        if (!r) return null;
        return isOther(r) ? (r.text ?? t.reports.file.other()) : answerText(q, r.answer_id);
      });
    case 'fewAnswers': {
      const cols: Column[] = q.answers.map((a) => ({
        header: `${title}: ${a.text}`,
        questionId: q.id,
        read: (rows) => (rows.length === 0 ? null : rows.some((r) => r.answer_id === a.id) ? 1 : 0),
      }));
      if (q.other !== null)
        cols.push({
          header: `${title}: ${t.reports.file.other()}`,
          questionId: q.id,
          read: (rows) => rows.find(isOther)?.text ?? null,
        });
      return cols;
    }
    case 'matrix':
      return q.statements.map((s) => ({
        header: `${title}: ${s.text}`,
        questionId: q.id,
        read: (rows) => answerText(q, rows.find((r) => r.statement_id === s.id)?.answer_id ?? null),
      }));
    case 'sortable':
      return q.answers.map((a) => ({
        header: `${title}: ${a.text}`,
        questionId: q.id,
        read: (rows) => rows.find((r) => r.answer_id === a.id)?.value ?? null,
      }));
    case 'fromTo':
    case 'slider':
    case 'nps':
    case 'starRating':
      return one((rows) => rows[0]?.value ?? null);
    case 'cityAuto':
    case 'regionAuto':
      return one((rows) => (rows[0]?.text ? placeName(rows[0].text) : null));
    default:
      return one((rows) => rows[0]?.text ?? null);
  }
}

/**
 * Which respondents a file's rows are (issue 31): the report's (the counted ones, `none`), or with the
 * excluded too, marked in an EXCLUDED column (`all`, includeExcluded=1); the respondents list's
 * download narrows them by the list's own filters and adds the flags and the exclusion's reason.
 */
export interface RowSelection {
  excluded: ExcludedMode;
  list?: { filter: RespondentsFilter; content: ProjectContent };
}
/** A report as a file writes it: the report JSON and the rows' selection. */
export type ReportFile = ReportJson & { rows?: RowSelection };
const COUNTED_ROWS: RowSelection = { excluded: 'none' };

export interface RespondentRow {
  id: number;
  status: number;
  portrait_id: string | null;
  gender: string | null;
  age: number | null;
  city: string | null;
  region: string | null;
  education: string | null;
  started_at: number | string;
  finished_at: number | string | null;
  excluded: number;
  flags: number;
  exclusion: string | null;
  /** The questionnaire language of the respondent's last page (issue 32; null before 021: the source). */
  language: string | null;
}

/** The columns of issue 31: EXCLUDED when excluded respondents are in the file; the list's flags and reason. */
function selectionColumns(t: TranslationFunctions, rows: RowSelection) {
  const q = t.quality;
  const out: { header: string; get: (r: RespondentRow) => Cell }[] = [];
  if (rows.excluded !== 'none') out.push({ header: q.file.excluded(), get: (r) => (r.excluded ? 1 : 0) });
  if (rows.list) {
    out.push({
      header: q.file.flags(),
      get: (r) =>
        flagNames(Number(r.flags))
          .map((n) => q.flags[n]())
          .join(', ') || null,
    });
    out.push({
      header: q.file.exclusionReason(),
      get: (r) => (r.exclusion ? (JSON.parse(r.exclusion) as { reason: string }).reason : null),
    });
  }
  return out;
}

function baseColumns(t: TranslationFunctions, content: ProjectContent, placeName: (id: string) => string) {
  const f = t.reports.file;
  const status = (s: number) =>
    s === RESPONDENT_STATUS.completed
      ? f.statuses.completed()
      : s === RESPONDENT_STATUS.screenedOut
        ? f.statuses.screenedOut()
        : f.statuses.started();
  const portraitName = (id: string | null) =>
    id === null ? null : (content.portraits.find((p) => p.id === id)?.name ?? id);
  const gender = (g: string | null) =>
    g !== null && (GENDERS as readonly string[]).includes(g)
      ? t.projects.gender[g as (typeof GENDERS)[number]]()
      : g;
  const education = (e: string | null) =>
    e !== null && (EDUCATION_LEVELS as readonly string[]).includes(e)
      ? t.projects.education[e as (typeof EDUCATION_LEVELS)[number]]()
      : e;
  const time = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
  return [
    { header: f.columns.id(), get: (r: RespondentRow) => r.id },
    { header: f.columns.status(), get: (r: RespondentRow) => status(r.status) },
    { header: f.columns.portrait(), get: (r: RespondentRow) => portraitName(r.portrait_id) },
    { header: f.columns.gender(), get: (r: RespondentRow) => gender(r.gender) },
    { header: f.columns.age(), get: (r: RespondentRow) => r.age },
    { header: f.columns.city(), get: (r: RespondentRow) => (r.city === null ? null : placeName(r.city)) },
    {
      header: f.columns.region(),
      get: (r: RespondentRow) => (r.region === null ? null : placeName(r.region)),
    },
    { header: f.columns.education(), get: (r: RespondentRow) => education(r.education) },
    { header: f.columns.startedAt(), get: (r: RespondentRow) => time(r.started_at) },
    { header: f.columns.finishedAt(), get: (r: RespondentRow) => time(r.finished_at) },
    // LANGUAGE (issue 32): the code, the same whatever the file's labels ('en', 'ru').
    { header: f.columns.language(), get: (r: RespondentRow) => r.language ?? sourceLanguage(content) },
  ];
}

/** The filtered respondents, BATCH at a time by id, each page with its answer rows by respondent and question. */
export async function* respondentPages(
  db: Db,
  pid: number,
  filters: ReportFilters,
  selection: RowSelection = COUNTED_ROWS,
): AsyncGenerator<{ respondents: RespondentRow[]; answers: Map<number, Map<string, AnswerRow[]>> }> {
  let after = 0;
  const guard = heapGuard();
  for (;;) {
    guard();
    const page = db
      .selectFrom('respondents')
      .select([
        'respondents.id',
        'respondents.status',
        'respondents.portrait_id',
        'respondents.gender',
        'respondents.age',
        'respondents.city',
        'respondents.region',
        'respondents.education',
        'respondents.started_at',
        'respondents.finished_at',
        'respondents.excluded',
        'respondents.flags',
        'respondents.exclusion',
        'respondents.language',
      ])
      .where('respondents.project_id', '=', pid)
      .where('respondents.id', '>', after);
    const respondents = (await (
      selection.list
        ? whereListFilter(page, pid, selection.list.filter, selection.list.content, dialectOf(db))
        : whereFilters(page, filters, selection.excluded)
    )
      .orderBy('respondents.id')
      .limit(BATCH)
      .execute()) as RespondentRow[];
    if (respondents.length === 0) return;
    const ids = respondents.map((r) => r.id);
    const rows = await db
      .selectFrom('respondent_answers')
      .select(['respondent_id', 'question_id', 'answer_id', 'statement_id', 'value', 'text'])
      .where('respondent_id', 'in', ids)
      .orderBy('id')
      .execute();
    const answers = new Map<number, Map<string, AnswerRow[]>>();
    for (const a of rows) {
      let perQ = answers.get(a.respondent_id);
      if (!perQ) answers.set(a.respondent_id, (perQ = new Map()));
      const row = { ...a, value: a.value === null ? null : Number(a.value) };
      const list = perQ.get(a.question_id);
      if (list) list.push(row);
      else perQ.set(a.question_id, [row]);
    }
    yield { respondents, answers };
    after = ids[ids.length - 1];
  }
}

/** The header and then one row per filtered respondent, page by page. */
export async function* rawRows(
  db: Db,
  pid: number,
  content: ProjectContent,
  filters: ReportFilters,
  t: TranslationFunctions,
  placeName: (id: string) => string = (id) => id,
  selection: RowSelection = COUNTED_ROWS,
): AsyncGenerator<Cell[]> {
  const base = [...baseColumns(t, content, placeName), ...selectionColumns(t, selection)];
  const columns = questionsOf(content).flatMap((ref, i) =>
    questionColumns(ref.question, i + 1, t, placeName),
  );
  yield [...base.map((c) => c.header), ...columns.map((c) => c.header)];
  for await (const { respondents, answers } of respondentPages(db, pid, filters, selection))
    for (const r of respondents) {
      const perQ = answers.get(r.id);
      yield [
        ...base.map((c) => c.get(r)),
        ...columns.map((c) => c.read(perQ?.get(c.questionId ?? '') ?? [])),
      ];
    }
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
