import * as v from 'valibot';
import { ReportQuery, type ReportFilters } from './reports';
import type { QuestionCategory } from './content/model';
import type { Anova, ChiSquare, GroupNumbers, WelchT } from './statistics';

// A crosstab of a project's answers (issue 23, GET /project/stats/crosstab): one question (or one
// matrix statement) in rows against a single-choice question or a respondent attribute in columns,
// with the report's filters. The server counts it with one GROUP BY (server/reports/crosstab-sql.ts)
// and shapes it here-described; the /report page's Compare section draws it. Decisions:
// docs/decisions/reports.md.

/** Respondent attributes that can be columns. */
export const CROSSTAB_ATTRIBUTES = ['gender', 'age', 'city', 'education', 'portrait', 'language'] as const;
export type CrosstabAttribute = (typeof CROSSTAB_ATTRIBUTES)[number];

/** The age bands of `cols=age`: [id, min, max] (max null: no upper bound). */
export const AGE_BANDS: readonly (readonly [string, number, number | null])[] = [
  ['14-17', 0, 17],
  ['18-24', 18, 24],
  ['25-34', 25, 34],
  ['35-44', 35, 44],
  ['45-54', 45, 54],
  ['55+', 55, null],
];

/** `cols=city`: the most frequent cities, the rest together. */
export const CROSSTAB_TOP_CITIES = 10;
/** cityAuto and regionAuto in rows: the most frequent places, the rest together. */
export const CROSSTAB_TOP_PLACES = 10;
/** The id of the column or row holding every place past the top ones. */
export const OTHER_PLACES = '~other';
/** The id of the custom "other" answer's row or column. */
export const OTHER_ANSWER = '~answer-other';
/** The significance level of the tests and the letters. */
export const ALPHA = 0.05;
/** A column (or table) with fewer respondents than this is marked: its percentages are shaky. */
export const SMALL_BASE = 30;

/** Categories that can be rows as a table of choices (with the tests of proportions). */
export const ROW_CHOICE: readonly QuestionCategory[] = [
  'oneAnswer',
  'fewAnswers',
  'screening',
  'qualification',
  'regionAuto',
  'cityAuto',
  'starRating',
  'slider',
  'nps',
];
/** Categories that can be rows as numbers by group (mean, sd, Welch's t or ANOVA). */
export const ROW_NUMERIC: readonly QuestionCategory[] = ['fromTo', 'slider', 'starRating', 'nps'];
/** Single-choice categories that can be columns. */
export const COL_CHOICE: readonly QuestionCategory[] = ['oneAnswer', 'screening', 'qualification'];

const id = /^[A-Za-z0-9_-]{1,32}$/;
export const CROSSTAB_FORMATS = ['json', 'xlsx', 'csv'] as const;
export type CrosstabFormat = (typeof CROSSTAB_FORMATS)[number];

export const CrosstabQuery = v.pipe(
  v.object({
    ...v.omit(ReportQuery.pipe[0], ['type', 'format', 'openQuestion', 'openPage', 'openPageSize']).entries,
    rows: v.pipe(v.string('type'), v.regex(/^[A-Za-z0-9_-]{1,32}(:[A-Za-z0-9_-]{1,32})?$/, 'invalid')),
    cols: v.pipe(v.string('type'), v.regex(id, 'invalid')),
    format: v.optional(v.picklist(CROSSTAB_FORMATS, 'invalid'), 'json'),
  }),
  v.forward(
    v.check((q) => q.ageMin === undefined || q.ageMax === undefined || q.ageMin <= q.ageMax, 'invalid'),
    ['ageMax'],
  ),
);
export type CrosstabQuery = v.InferOutput<typeof CrosstabQuery>;

export interface CrosstabHeader {
  id: string;
  text: string;
}

export interface CrosstabColumn extends CrosstabHeader {
  /** A, B, C… as the letters of the cells name it. */
  letter: string;
  /** Respondents in the column (the base of its percentages). */
  total: number;
  /** The base is under SMALL_BASE. */
  smallBase: boolean;
}

export interface CrosstabCell {
  count: number;
  /** Of the column's respondents, 0–100 with one decimal. */
  colPercent: number;
  /** Of the row's count, 0–100 with one decimal. */
  rowPercent: number;
  /** Letters of the columns this cell's proportion is significantly larger than. */
  letters: string[];
}

/** A significant difference of proportions, for the page's plain sentences. */
export interface CrosstabFinding {
  row: number;
  larger: number;
  smaller: number;
  /** Bonferroni-adjusted. */
  p: number;
}

export interface CrosstabNumbers {
  /** Per column, then the whole base. */
  cols: (GroupNumbers & { nps?: number | null; smallBase: boolean })[];
  total: GroupNumbers & { nps?: number | null };
  test: WelchT | Anova | null;
}

export interface CrosstabJson {
  project: { id: number; name: string };
  filters: ReportFilters;
  /** What is in rows: a question, or one statement of a matrix. */
  rowsOf: { id: string; text: string; category: QuestionCategory; statement?: CrosstabHeader };
  colsOf: { id: string; text: string; kind: 'question' | 'attribute' };
  /** One respondent may count in several rows (fewAnswers): percentages then add past 100. */
  multiple: boolean;
  rows: CrosstabHeader[];
  cols: CrosstabColumn[];
  cells: CrosstabCell[][];
  totals: {
    /** Per row: the row's count over every column. */
    rows: number[];
    /** Per column: its respondents. */
    cols: number[];
    /** Respondents in the table: answered both (or have the attribute). */
    all: number;
  };
  /** The whole base is under SMALL_BASE. */
  smallBase: boolean;
  /** The table's chi-square (null for fewAnswers rows, or when fewer than 2 rows or columns have counts). */
  test: ChiSquare | null;
  /** fewAnswers rows: each answer against the rest, a 2 × k chi-square of its own. */
  rowTests?: (ChiSquare | null)[];
  findings: CrosstabFinding[];
  /** fromTo, slider, starRating, nps rows. */
  numbers?: CrosstabNumbers;
  generatedAt: number;
}

/** Column letters: A…Z, then AA, AB… */
export function columnLetter(i: number): string {
  let s = '';
  let n = i + 1;
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}
