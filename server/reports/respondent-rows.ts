import { dialectOf, type Db } from '../db';
import type { TranslationFunctions } from '../../src/i18n/i18n-types';
import type { ProjectContent, Question } from '../../src/domain/content/model';
import type { ReportFilters, ReportJson } from '../../src/domain/reports';
import { EDUCATION_LEVELS, GENDERS } from '../../src/domain/lookups';
import { sourceLanguage } from '../../src/domain/content/languages';
import type { AnswerRow } from '../../src/domain/flow';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import { whereFilters } from './answer-rows';
import type { ExcludedMode, RespondentsFilter } from '../../src/domain/responses';
import { flagNames } from '../../src/domain/quality';
import { whereListFilter } from '../responses/filter';
import { OTHER_ANSWER_ID, questionsOf } from './shape';
import { heapGuard } from './heap';

// The raw sheet of a download (workbook.ts): one row per respondent, a column per question (and per
// answer for multiple choice), read from the database in pages of BATCH respondents by id, each
// page's answers in one query.

const BATCH = 500;

export type Cell = string | number | null;
interface Column {
  header: string;
  /** Fills this column from one respondent's answer rows to its question. */
  read: (rows: AnswerRow[]) => Cell;
  questionId?: string;
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
