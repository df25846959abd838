import * as v from 'valibot';
import type { QuestionCategory } from './content/model';
import { REPORT_FILTER_KEYS, ReportQuery, TEXT_SEARCH_MAX } from './reports';
import { bodyId, CONTROL_CHARS, isoDay, objectMessage, queryInt } from './validation';
import { canReadProject } from './projects';
import { Role } from './roles';
import type { User } from './user';

// Respondents one by one (issue 31): the list, one respondent's answers, exclusion, restore and
// erasure, and the report's quality card and field progress. The server (server/routes/responses.ts,
// server/responses/) and the /responses page both read these shapes. The respondent filters are the
// report's own (REPORT_FILTER_KEYS, one parser), plus the list's status, dates, flag, exclusion and
// text search. Decisions: docs/decisions/responses.md.

/** The quality flags, by the names the API and the URLs use. */
export const QUALITY_FLAGS = ['speeder', 'straight-liner', 'gibberish', 'duplicate'] as const;
export type QualityFlagName = (typeof QUALITY_FLAGS)[number];

/** A respondent's status as the list says it (quotaFull: turned away when the portrait filled up). */
export const RESPONDENT_STATUSES = ['inProgress', 'completed', 'screenedOut', 'quotaFull'] as const;
export type RespondentStatusName = (typeof RESPONDENT_STATUSES)[number];

export const RESPONDENT_SORTS = [
  '-started',
  'started',
  '-finished',
  'finished',
  '-duration',
  'duration',
  '-id',
  'id',
] as const;
export type RespondentSort = (typeof RESPONDENT_SORTS)[number];

export const EXCLUDED_MODES = ['none', 'only', 'all'] as const;
export type ExcludedMode = (typeof EXCLUDED_MODES)[number];

/** `any`: at least one flag; `none`: no flag; or one flag by name. */
export const FLAG_FILTERS = ['any', 'none', ...QUALITY_FLAGS] as const;
export type FlagFilter = (typeof FLAG_FILTERS)[number];

export const RESPONDENTS_PAGE_SIZE_DEFAULT = 50;
export const RESPONDENTS_PAGE_SIZE_MAX = 200;
/** Past this page a list of at most a few million respondents is surely empty. */
export const RESPONDENTS_PAGE_MAX = 100_000;
/** Ids in one exclusion call (a filter reaches any number). */
export const EXCLUSION_IDS_MAX = 10_000;
export const EXCLUSION_REASON_MAX = 500;

/** The speeder rule: flagged under this share of the median completion time (set_speeder_percent). */
export { SPEEDER_PERCENT_DEFAULT, SPEEDER_PERCENT_MIN, SPEEDER_PERCENT_MAX } from './projectSettings';
/** Speeders are flagged only once this many respondents have completed. */
export const SPEEDER_MIN_COMPLETED = 30;
/** straight-liner: a matrix of at least this many statements, all in one column… */
export const STRAIGHT_MATRIX_MIN = 4;
/** …or this many consecutive scale questions (starRating, slider, nps) at one position. */
export const STRAIGHT_SCALE_RUN = 5;
/** Field progress: past this many days at the present pace, "not at this pace". */
export const FIELD_ETA_MAX_DAYS = 30;
/** Field progress: the pace is measured over this window. */
export const FIELD_PACE_HOURS = 24;

/** An empty query value means "no filter" (the page sends every field). */
const optionalOf = <T>(schema: v.GenericSchema<string, T>) =>
  v.pipe(
    v.optional(v.string('type')),
    v.transform((s) => (s === undefined || s.trim() === '' ? undefined : s)),
    v.optional(schema),
  );
const searchText = v.pipe(
  v.string('type'),
  v.trim(),
  v.maxLength(TEXT_SEARCH_MAX, 'tooLong'),
  v.check((s) => !s.includes('\0'), 'invalid'),
);

/** The report's filters, exactly as GET /project/stats/file parses them. */
const reportFilterEntries = v.pick(ReportQuery.pipe[0], REPORT_FILTER_KEYS).entries;

/** The list's own filters, as query strings. */
const listFilterEntries = {
  status: optionalOf(v.picklist(RESPONDENT_STATUSES, 'invalid')),
  // Days (UTC), both inclusive, compared with the respondent's start.
  from: optionalOf(isoDay),
  to: optionalOf(isoDay),
  flag: optionalOf(v.picklist(FLAG_FILTERS, 'invalid')),
  /** Default `all`: excluded respondents are listed, marked, so an exclusion can be seen and undone. */
  excluded: v.optional(v.picklist(EXCLUDED_MODES, 'invalid'), 'all'),
  /** Case-insensitive substring of any written answer (open, "Other"). */
  textSearch: optionalOf(searchText),
};

type Ranged = { ageMin?: number; ageMax?: number; from?: string; to?: string };
const ageInOrder = (q: Ranged) => q.ageMin === undefined || q.ageMax === undefined || q.ageMin <= q.ageMax;
const datesInOrder = (q: Ranged) => q.from === undefined || q.to === undefined || q.from <= q.to;

/** GET /project/respondents: a page of a project's respondents. Unknown query fields are refused. */
export const RespondentsQuery = v.pipe(
  v.strictObject(
    {
      pid: queryInt(1, 2_147_483_647),
      page: v.optional(queryInt(1, RESPONDENTS_PAGE_MAX), '1'),
      pageSize: v.optional(queryInt(1, RESPONDENTS_PAGE_SIZE_MAX), String(RESPONDENTS_PAGE_SIZE_DEFAULT)),
      sort: v.optional(v.picklist(RESPONDENT_SORTS, 'invalid'), '-started'),
      ...reportFilterEntries,
      ...listFilterEntries,
    },
    objectMessage,
  ),
  v.forward(
    v.check((q) => ageInOrder(q), 'invalid'),
    ['ageMax'],
  ),
  v.forward(
    v.check((q) => datesInOrder(q), 'invalid'),
    ['to'],
  ),
);
export type RespondentsQuery = v.InferOutput<typeof RespondentsQuery>;

/** Who a list shows: the report's filters and the list's own, as parsed (typed values). */
export type RespondentsFilter = Omit<RespondentsQuery, 'pid' | 'page' | 'pageSize' | 'sort'>;

const FILTER_FIELDS = [
  ...REPORT_FILTER_KEYS,
  ...(Object.keys(listFilterEntries) as (keyof typeof listFilterEntries)[]),
];

export const RESPONDENTS_FILE_FORMATS = ['xlsx', 'csv'] as const;

/** GET /project/respondents/file: the filtered list as a file (the list's filters, no paging). */
export const RespondentsFileQuery = v.pipe(
  v.strictObject(
    {
      pid: queryInt(1, 2_147_483_647),
      format: v.optional(v.picklist(RESPONDENTS_FILE_FORMATS, 'invalid'), 'xlsx'),
      ...reportFilterEntries,
      ...listFilterEntries,
    },
    objectMessage,
  ),
  v.forward(
    v.check((q) => ageInOrder(q), 'invalid'),
    ['ageMax'],
  ),
  v.forward(
    v.check((q) => datesInOrder(q), 'invalid'),
    ['to'],
  ),
);
export type RespondentsFileQuery = v.InferOutput<typeof RespondentsFileQuery>;

/**
 * Who may exclude, restore and erase a project's respondents: the Administrator, and the researchers
 * of the project's organization (who may edit it). Reading them is reading the report.
 */
export function canManageRespondents(
  user: Pick<User, 'role' | 'organization'>,
  p: { organization_id: number; status: number },
): boolean {
  return RESPONDENT_MANAGERS.includes(user.role.id) && canReadProject(user, p);
}
export const RESPONDENT_MANAGERS: readonly number[] = [Role.Administrator, Role.Researcher];

/** The filter part of a parsed list query (typed values: what the server's queries take). */
export function respondentsFilterOf(q: RespondentsQuery | RespondentsFileQuery): RespondentsFilter {
  const out: Record<string, unknown> = {};
  for (const key of FILTER_FIELDS)
    if ((q as Record<string, unknown>)[key] !== undefined) out[key] = (q as Record<string, unknown>)[key];
  return out as RespondentsFilter;
}

/**
 * The same filter in a JSON body, with the URL's string values (what the page's address holds:
 * `{ "flag": "speeder", "ageMin": "18" }`), so the page sends its own query as it is and the server
 * parses it with the list's own field schemas. Its output is a RespondentsFilter.
 */
export const RespondentsFilterBody = v.pipe(
  v.strictObject(
    {
      ...Object.fromEntries(REPORT_FILTER_KEYS.map((k) => [k, reportFilterEntries[k]])),
      ...listFilterEntries,
    } as typeof reportFilterEntries & typeof listFilterEntries,
    objectMessage,
  ),
  v.forward(
    v.check((q) => ageInOrder(q), 'invalid'),
    ['ageMax'],
  ),
  v.forward(
    v.check((q) => datesInOrder(q), 'invalid'),
    ['to'],
  ),
);

/** A respondent's place in a flag's reason: why the server flagged them (kept with the flag). */
export type GibberishRule = 'mashing' | 'repeated' | 'noVowels' | 'symbol';
export type QualityFlagParams =
  /** Finished in `seconds`; the threshold is `percent` % of the median of the completed. */
  | { name: 'speeder'; seconds: number; medianSeconds: number; thresholdSeconds: number; percent: number }
  /** A matrix answered in one column for all its statements. */
  | { name: 'straight-liner'; kind: 'matrix'; questionId: string; questionNumber: number; statements: number }
  /** `count` consecutive scale questions answered at the same position (first…last question). */
  | {
      name: 'straight-liner';
      kind: 'scale';
      questionId: string;
      questionNumber: number;
      lastQuestionNumber: number;
      count: number;
    }
  /** A written answer (open or "Other") that is not words; the text is quoted in the reason. */
  | { name: 'gibberish'; questionId: string; questionNumber: number; text: string; rule: GibberishRule }
  /** The same player (sdk) or browser (link) completed the project before, as respondent `firstId`. */
  | { name: 'duplicate'; by: 'player' | 'browser'; firstId: number };

/** A flag as read: its parameters and the reason in plain words, in the reader's language. */
export type QualityFlag = QualityFlagParams & { reason: string };

export interface RespondentExclusion {
  reason: string;
  at: number;
  /** Who excluded them (their name as it was; null author for the system, e.g. an erasure). */
  author: { id: number | null; email: string; fullname: string };
}

/** One row of GET /project/respondents. Times are unix milliseconds. */
export interface RespondentListRow {
  id: number;
  status: RespondentStatusName;
  source: 'link' | 'sdk' | 'demo';
  game: { id: number; name: string } | null;
  portrait: { id: string; name: string } | null;
  startedAt: number;
  finishedAt: number | null;
  /** finishedAt − startedAt in seconds (whole), once the survey ended for them. */
  durationSeconds: number | null;
  profile: {
    gender: string | null;
    age: number | null;
    /** The stored city id ("MOS:Podolsk"), and its name in the reader's language. */
    city: string | null;
    cityName: string | null;
    education: string | null;
  };
  /** The questionnaire language the respondent answered in (issue 32), when known. */
  language: string | null;
  flags: QualityFlag[];
  exclusion: RespondentExclusion | null;
  /** Erased at the person's request: only this anonymous row is left (no profile, no answers). */
  erasedAt: number | null;
}

export interface RespondentsPage {
  total: number;
  page: number;
  pageSize: number;
  items: RespondentListRow[];
}

/** GET /project/respondent: one respondent. */
export const RespondentQuery = v.strictObject(
  { pid: queryInt(1, 2_147_483_647), id: queryInt(1, 2_147_483_647) },
  objectMessage,
);
export type RespondentQuery = v.InferOutput<typeof RespondentQuery>;

/** One answered page (question) of a respondent, in the order the respondent was asked. */
export interface RespondentAnswer {
  questionId: string;
  questionnaireId: string;
  blockId: string;
  /** The question's number in the report (1-based, questionnaire order). */
  number: number;
  category: QuestionCategory;
  text: string;
  /** Picked answers as texts, in the order they were shown. */
  picked: { id: string; text: string }[];
  /** sortable: the answers in the ranked order (rank 1 first). */
  ranked?: { id: string; text: string; rank: number }[];
  /** matrix: each statement with the column picked. */
  cells?: { statementId: string; statement: string; answerId: string; answer: string }[];
  /** fromTo, slider, nps, starRating. */
  value?: number | null;
  /** The "Other" answer's text, when picked. */
  other?: string | null;
  /** open: the written text. */
  written?: string | null;
  /** cityAuto, regionAuto: the place picked (`id` as stored) and its name in the reader's language. */
  place?: { id: string; name: string } | null;
  /** The order the answers (matrix: statements) were shown in, after shuffling and recall. */
  shown: { id: string; text: string }[];
  /** Seconds between the page shown and its answer; null for respondents before issue 31. */
  seconds: number | null;
  /** The flags this answer tripped (gibberish, a straight line), to mark it on the page. */
  flagged: QualityFlagName[];
}

export interface RespondentDetail {
  respondent: RespondentListRow;
  answers: RespondentAnswer[];
  /** Whether page times were recorded for this respondent (started after issue 31). */
  pageTimes: boolean;
}

/** The reason of an exclusion or restore: required to exclude, optional to restore. */
const reasonText = v.pipe(
  v.string('type'),
  v.trim(),
  v.maxLength(EXCLUSION_REASON_MAX, 'tooLong'),
  v.check((s) => !CONTROL_CHARS.test(s), 'controlChars'),
);

/** POST /project/respondents/exclusion: exclude (or restore) a list of ids or everyone a filter matches. */
export const ExclusionBody = v.pipe(
  v.strictObject(
    {
      pid: bodyId,
      ids: v.optional(
        v.pipe(v.array(bodyId, 'type'), v.minLength(1, 'required'), v.maxLength(EXCLUSION_IDS_MAX, 'tooBig')),
      ),
      filter: v.optional(RespondentsFilterBody),
      excluded: v.boolean('type'),
      reason: v.optional(reasonText, ''),
    },
    objectMessage,
  ),
  v.forward(
    v.check((b) => (b.ids === undefined) !== (b.filter === undefined), 'idsOrFilter'),
    ['ids'],
  ),
  v.forward(
    v.check((b) => !b.excluded || b.reason.length > 0, 'required'),
    ['reason'],
  ),
);
export type ExclusionBody = v.InferOutput<typeof ExclusionBody>;

export interface ExclusionResult {
  /** Respondents whose exclusion changed (already excluded, or already restored, are not counted). */
  affected: number;
  /** Of those, completed respondents whose portrait place was freed (or taken back on restore). */
  quotaPlaces: number;
}

/** DELETE /project/respondent: erase one respondent's answers and profile (the person's request). */
export const EraseBody = v.strictObject({ pid: bodyId, id: bodyId }, objectMessage);
export type EraseBody = v.InferOutput<typeof EraseBody>;

/** The report's "Response quality" card (report JSON `quality`), over the report's filters. */
export interface ReportQuality {
  /** Completed respondents not excluded: the share is of them. */
  completed: number;
  /** Of those, flagged with at least one flag. */
  flagged: number;
  /** flagged / completed, 0–100 with one decimal. */
  percent: number;
  /** Each flag with its count (a respondent may count under several). */
  flags: { name: QualityFlagName; count: number }[];
  /** Excluded respondents matching the filters (erased included), beside. */
  excluded: number;
  /** The speeder rule as it stands (null median until SPEEDER_MIN_COMPLETED have completed). */
  speeder: {
    percent: number;
    medianSeconds: number | null;
    thresholdSeconds: number | null;
    minCompleted: number;
  };
}

/** One portrait's field progress (report JSON `field`). */
export interface FieldPortrait {
  id: string;
  name: string;
  target: number;
  /** Completed and not excluded. */
  accepted: number;
  /** Completed and excluded (their places were freed while the project ran). */
  excluded: number;
  /** Accepted completes per hour over the last FIELD_PACE_HOURS hours, one decimal. */
  perHour: number;
  /**
   * `full`: target reached; `eta`: full at `eta` (unix ms) at this pace; `notAtThisPace`: not full
   * within FIELD_ETA_MAX_DAYS (no completes in the window included).
   */
  state: 'full' | 'eta' | 'notAtThisPace';
  eta: number | null;
}

export interface ReportField {
  /** When the numbers were taken (unix ms): the pace window ends here. */
  at: number;
  portraits: FieldPortrait[];
}

/**
 * What the project costs for its accepted completes (report JSON `price`): the calculator's formula
 * (src/domain/projectPrice.ts) applied to the completed respondents not excluded, per portrait;
 * excluded completes are not paid for and are counted beside. Roubles, VK share included.
 */
export interface ReportPrice {
  accepted: number;
  excluded: number;
  oneOff: number;
  perRespondent: number;
  total: number;
}
