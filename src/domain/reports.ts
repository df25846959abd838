import * as v from 'valibot';
import { AGE_MAX, AGE_MIN, EDUCATION_LEVELS, GENDERS } from './lookups';
import type { QuestionCategory } from './content/model';
import { ProjectStatus, type ProjectStatusId } from './projects';
import type { ReportField, ReportPrice, ReportQuality } from './responses';
import { SUPPORTED_LANGUAGES } from './content/languages';
import { queryInt } from './validation';

// The report of a project (spec sections 2 and 7: GET /project/stats/file, type=json or type=stats)
// as the server answers it and the /report page draws it. The numbers come from GROUP BY queries
// (server/reports/aggregate.ts) shaped by one pure function (server/reports/shape.ts); the page,
// the workbook and the CSV all read this shape, so they can never disagree. Decisions:
// docs/decisions/reports.md.

/** Page size of the open answers listed per question. */
export const OPEN_PAGE_SIZE_DEFAULT = 20;
export const OPEN_PAGE_SIZE_MAX = 100;
/** Past this page an open-answer list is surely empty (100 000 respondents / 20 per page). */
export const OPEN_PAGE_MAX = 100_000;

const queryText = (max: number) =>
  v.pipe(
    v.string('type'),
    v.trim(),
    v.maxLength(max, 'tooLong'),
    v.check((s) => !s.includes('\0'), 'invalid'),
  );
/** An empty query value means "no filter" (the page sends every field). */
const optionalOf = <T>(schema: v.GenericSchema<string, T>) =>
  v.pipe(
    v.optional(v.string('type')),
    v.transform((s) => (s === undefined || s.trim() === '' ? undefined : s)),
    v.optional(schema),
  );

export const REPORT_TYPES = ['json', 'stats'] as const;
export const REPORT_FORMATS = ['xlsx', 'csv', 'sav'] as const;
/** The longest text search of the written answers. */
export const TEXT_SEARCH_MAX = 200;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const ReportQuery = v.pipe(
  v.object({
    pid: queryInt(1, 2_147_483_647),
    type: v.picklist(REPORT_TYPES, 'invalid'),
    format: v.optional(v.picklist(REPORT_FORMATS, 'invalid'), 'xlsx'),
    gender: optionalOf(v.picklist(GENDERS, 'invalid')),
    ageMin: optionalOf(queryInt(AGE_MIN, AGE_MAX)),
    ageMax: optionalOf(queryInt(AGE_MIN, AGE_MAX)),
    city: optionalOf(queryText(120)),
    education: optionalOf(v.picklist(EDUCATION_LEVELS, 'invalid')),
    portrait: optionalOf(v.pipe(v.string('type'), v.regex(/^[A-Za-z0-9_-]{1,32}$/, 'invalid'))),
    /** The respondents who answered in this questionnaire language (issue 32; their last page's). */
    language: optionalOf(v.picklist(SUPPORTED_LANGUAGES, 'language')),
    /**
     * The questionnaire language of the question and answer texts (issue 32): the downloads' labels
     * (default: the source), the JSON's texts (default: the reader's language when the questionnaire
     * has it, else the source). One the questionnaire does not have is a 400.
     */
    labels: optionalOf(v.picklist(SUPPORTED_LANGUAGES, 'language')),
    /** The open question whose list `openPage` pages; the others show their first page. */
    openQuestion: optionalOf(v.pipe(v.string('type'), v.regex(/^[A-Za-z0-9_-]{1,32}$/, 'invalid'))),
    openPage: v.optional(queryInt(1, OPEN_PAGE_MAX), '1'),
    openPageSize: v.optional(queryInt(1, OPEN_PAGE_SIZE_MAX), String(OPEN_PAGE_SIZE_DEFAULT)),
    /** Case-insensitive substring of the written answers listed (open and "Other"). */
    textSearch: optionalOf(queryText(TEXT_SEARCH_MAX)),
    /** Downloads (type=stats): '1' puts the excluded respondents in the file too, with an EXCLUDED variable (issue 31). */
    includeExcluded: v.optional(v.picklist(['0', '1'], 'invalid')),
  }),
  v.forward(
    v.check((q) => q.ageMin === undefined || q.ageMax === undefined || q.ageMin <= q.ageMax, 'invalid'),
    ['ageMax'],
  ),
);
export type ReportQuery = v.InferOutput<typeof ReportQuery>;

/** The respondent filters of a report (all optional; together they narrow with AND). */
export interface ReportFilters {
  gender?: string;
  ageMin?: number;
  ageMax?: number;
  city?: string;
  education?: string;
  portrait?: string;
  /** A questionnaire language (issue 32): respondents whose last page was in it. */
  language?: string;
}

/** The filters' names, in the order the page and the query list them. */
export const FILTER_KEYS = [
  'gender',
  'ageMin',
  'ageMax',
  'city',
  'education',
  'portrait',
  'language',
] as const;

/** The filter fields of ReportQuery, which the respondents list (src/domain/responses.ts) reads too. */
export const REPORT_FILTER_KEYS = FILTER_KEYS;

export function filtersOf(q: ReportFilters): ReportFilters {
  const f: ReportFilters = {};
  for (const key of FILTER_KEYS) {
    if (q[key] !== undefined) (f as Record<string, unknown>)[key] = q[key];
  }
  return f;
}

/**
 * Statuses in which the report is final: the survey no longer runs. Before that (on rotation,
 * paused) the report is readable only when the project's set_report_fill_online is on.
 */
export const FINAL_REPORT_STATUSES: readonly ProjectStatusId[] = [
  ProjectStatus.Stopped,
  ProjectStatus.CreatingReport,
  ProjectStatus.SurveyFinished,
  ProjectStatus.ProjectFinished,
];

export interface ReportAnswer {
  id: string;
  text: string;
  count: number;
  /** Of the respondents who answered the question, 0–100 with one decimal. */
  percent: number;
}

export interface ReportNumbers {
  mean: number | null;
  median: number | null;
  min: number | null;
  max: number | null;
  distribution: { value: number; count: number }[];
}

export interface ReportQuestion {
  id: string;
  questionnaireId: string;
  /** 1-based position in the report. */
  number: number;
  category: QuestionCategory;
  text: string;
  /** Respondents who gave any answer to it. */
  answered: number;
  /** Choices (and the matrix's columns, the ranking's answers). */
  answers?: ReportAnswer[];
  /** The custom "other" answer, when the question offers it, with one page of its texts. */
  other?: { count: number; percent: number; texts?: ReportTexts };
  /** Matrix: statement × answer counts. */
  matrix?: { id: string; text: string; answered: number; cells: ReportAnswer[] }[];
  /** fromTo, slider, nps, starRating. */
  numbers?: ReportNumbers;
  /** nps: shares of promoters (9–10), passives (7–8), detractors (0–6) and the score. */
  nps?: { promoters: number; passives: number; detractors: number; score: number | null };
  /** sortable: mean rank per answer (1 is first), lower first. */
  ranks?: { id: string; text: string; count: number; meanRank: number | null }[];
  /** open: one page of texts, newest last. */
  open?: ReportTexts;
  /** cityAuto, regionAuto: the places picked (`id` as stored), most frequent first. */
  places?: { id: string; name: string; count: number; percent: number }[];
}

/** One page of written answers; `total` counts those matching the text search, if any. */
export interface ReportTexts {
  total: number;
  page: number;
  pageSize: number;
  items: { respondentId: number; text: string }[];
}

/** One question of the drop-off funnel (docs/decisions/reports.md). */
export interface ReportFunnelStep {
  questionId: string;
  /** Respondents who were shown it: answered it, or see it now. */
  reached: number;
  answered: number;
  /** Whose last seen question it is and who never completed (in progress or screened out). */
  leftHere: number;
  /** Of leftHere, those the survey turned away here (screening, a full quota). */
  screenedOut: number;
}

export interface ReportTiming {
  /** Completed respondents the times are of. */
  completed: number;
  medianSeconds: number | null;
  p90Seconds: number | null;
}

export interface ReportJson {
  project: { id: number; name: string; status: ProjectStatusId };
  /** Whether the survey has ended (the numbers will not change any more). */
  final: boolean;
  /** False while the survey runs and set_report_fill_online is off: only counters are given. */
  available: boolean;
  /** False while the survey runs and set_stat_fill_online is off: counters are hidden too. */
  countersAvailable: boolean;
  filters: ReportFilters;
  /** The questionnaire's languages, source first (issue 32: the language filter and column). */
  languages: string[];
  /** The language of the question and answer texts here (the reader's, labels=, or the source). */
  textLanguage: string;
  /** Respondents not excluded; `excluded` counts the excluded (erased included) beside (issue 31). */
  respondents: {
    started: number;
    completed: number;
    screenedOut: number;
    inProgress: number;
    excluded?: number;
  };
  portraits: { id: string; name: string; target: number; completed: number }[];
  questions: ReportQuestion[];
  /** The respondents' own city and region: `id` as stored (and as the city filter takes it). */
  cities: { id: string; name: string; count: number }[];
  regions: { id: string; name: string; count: number }[];
  /** In questionnaire order; empty when the numbers are not available. */
  funnel: ReportFunnelStep[];
  timing: ReportTiming;
  /** Per day (UTC, YYYY-MM-DD), oldest first; days with no start and no completion left out. */
  timeline: { day: string; started: number; completed: number }[];
  /** The "Response quality" card (issue 31); absent when the numbers are not available. */
  quality?: ReportQuality;
  /** Field progress per portrait (issue 31); absent for a project without portraits. */
  field?: ReportField;
  /** The price of the accepted completes, excluded ones beside (issue 31); with the counters. */
  price?: ReportPrice;
  generatedAt: number;
}
