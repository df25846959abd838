import type { TranslationFunctions } from '../../i18n/i18n-types';
import { AGE_MAX, AGE_MIN, EDUCATION_LEVELS, GENDERS } from '../../domain/lookups';
import {
  EXCLUDED_MODES,
  FLAG_FILTERS,
  QUALITY_FLAGS,
  RESPONDENT_SORTS,
  RESPONDENT_STATUSES,
  type RespondentSort,
} from '../../domain/responses';
import { TEXT_SEARCH_MAX } from '../../domain/reports';
import type { RespondentFilters } from '../../api/responses';
import { languageName } from '../../domain/content/languages';
import { flagName } from './labels';

// The /responses list's filters as data: one entry per filter says its query key, how its control
// looks, which values it takes from the address and which choices it offers. The filter bar, the
// address (so that a copied link opens the same list) and the list call all read this table, so a
// new filter (the questionnaire language, issue 32) is one entry here and one text. Values that make
// no sense in an address are dropped, as the report's are (reports/reportUrl.ts); the server checks
// everything again.

/** Choices known only at run time (the project's portraits, the cities seen). */
export interface FilterChoices {
  portraits: { id: string; name: string }[];
  cities: { id: string; name: string }[];
  /** The questionnaire's languages, source first (issue 32). */
  languages: { id: string; name: string }[];
}

export const NO_CHOICES: FilterChoices = { portraits: [], cities: [], languages: [] };

type Option = { id: string; name: string };

interface Base {
  key: string;
  label: (LL: TranslationFunctions) => string;
  /** The value as the address and the call carry it, or undefined when it makes no sense. */
  parse: (raw: string) => string | undefined;
  /** A wider box for the text search. */
  wide?: boolean;
  /** Shown only when this says so (absent: always); a value in the address always shows. */
  offered?: (choices: FilterChoices) => boolean;
}
export type FilterDef =
  | (Base & {
      kind: 'select';
      /** The text of "no filter" (absent: the filter always has one of the options). */
      any?: (LL: TranslationFunctions) => string;
      options: (LL: TranslationFunctions, choices: FilterChoices) => Option[];
      /** The name of a value from the address before the choices have come (absent: the value). */
      nameOf?: (value: string, locale: string) => string;
    })
  | (Base & { kind: 'number'; min: number; max: number })
  | (Base & { kind: 'date' })
  | (Base & { kind: 'text'; maxLength: number });

const oneOf = (list: readonly string[]) => (raw: string) => (list.includes(raw) ? raw : undefined);
const ID = /^[A-Za-z0-9_-]{1,32}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const LANGUAGE = /^[a-z]{2,3}$/;
const age = (raw: string) => {
  if (!/^\d{1,2}$/.test(raw)) return undefined;
  const n = Number(raw);
  return n >= AGE_MIN && n <= AGE_MAX ? String(n) : undefined;
};
const day = (raw: string) => (DAY.test(raw) && !Number.isNaN(Date.parse(raw)) ? raw : undefined);
const text = (max: number) => (raw: string) => {
  const t = raw.trim();
  return t && t.length <= max && !t.includes('\0') ? t : undefined;
};

/** The report's filters first (same keys, same meaning), then the list's own. */
export const FILTERS: readonly FilterDef[] = [
  {
    key: 'portrait',
    kind: 'select',
    label: (LL) => LL.responses.filters.portrait(),
    any: (LL) => LL.responses.filters.anyPortrait(),
    parse: (raw) => (ID.test(raw) ? raw : undefined),
    options: (_LL, c) => c.portraits,
  },
  {
    key: 'gender',
    kind: 'select',
    label: (LL) => LL.responses.filters.gender(),
    any: (LL) => LL.responses.filters.any(),
    parse: oneOf(GENDERS),
    options: (LL) => GENDERS.map((g) => ({ id: g, name: LL.responses.gender[g]() })),
  },
  {
    key: 'ageMin',
    kind: 'number',
    min: AGE_MIN,
    max: AGE_MAX,
    label: (LL) => LL.responses.filters.ageMin(),
    parse: age,
  },
  {
    key: 'ageMax',
    kind: 'number',
    min: AGE_MIN,
    max: AGE_MAX,
    label: (LL) => LL.responses.filters.ageMax(),
    parse: age,
  },
  {
    key: 'city',
    kind: 'select',
    label: (LL) => LL.responses.filters.city(),
    any: (LL) => LL.responses.filters.any(),
    parse: text(120),
    options: (_LL, c) => c.cities,
  },
  {
    key: 'education',
    kind: 'select',
    label: (LL) => LL.responses.filters.education(),
    any: (LL) => LL.responses.filters.any(),
    parse: oneOf(EDUCATION_LEVELS),
    options: (LL) => EDUCATION_LEVELS.map((e) => ({ id: e, name: LL.responses.education[e]() })),
  },
  {
    // The report's language filter (issue 32), offered when the questionnaire has several.
    key: 'language',
    kind: 'select',
    label: (LL) => LL.responses.filters.language(),
    any: (LL) => LL.responses.filters.anyLanguage(),
    parse: (raw) => (LANGUAGE.test(raw) ? raw : undefined),
    options: (_LL, c) => c.languages,
    nameOf: (code, locale) => languageName(code, locale),
    offered: (c) => c.languages.length > 1,
  },
  {
    key: 'status',
    kind: 'select',
    label: (LL) => LL.responses.filters.status(),
    any: (LL) => LL.responses.filters.anyStatus(),
    parse: oneOf(RESPONDENT_STATUSES),
    options: (LL) => RESPONDENT_STATUSES.map((s) => ({ id: s, name: LL.responses.status[s]() })),
  },
  {
    key: 'from',
    kind: 'date',
    label: (LL) => LL.responses.filters.from(),
    parse: day,
  },
  {
    key: 'to',
    kind: 'date',
    label: (LL) => LL.responses.filters.to(),
    parse: day,
  },
  {
    key: 'flag',
    kind: 'select',
    label: (LL) => LL.responses.filters.flag(),
    any: (LL) => LL.responses.filters.anyFlag(),
    parse: oneOf(FLAG_FILTERS),
    options: (LL) => [
      { id: 'any', name: LL.responses.filters.flagged() },
      { id: 'none', name: LL.responses.filters.notFlagged() },
      ...QUALITY_FLAGS.map((k) => ({ id: k, name: flagName(LL, k) })),
    ],
  },
  {
    key: 'excluded',
    kind: 'select',
    label: (LL) => LL.responses.filters.excluded(),
    any: (LL) => LL.responses.excluded.all(),
    parse: oneOf(EXCLUDED_MODES.filter((c) => c !== 'all')),
    options: (LL) => [
      { id: 'none', name: LL.responses.excluded.none() },
      { id: 'only', name: LL.responses.excluded.only() },
    ],
  },
  {
    key: 'textSearch',
    kind: 'text',
    maxLength: TEXT_SEARCH_MAX,
    wide: true,
    label: (LL) => LL.responses.filters.textSearch(),
    parse: text(TEXT_SEARCH_MAX),
  },
];

const KEYS = new Set(FILTERS.map((f) => f.key));

/** The filters an address asks for (unknown keys and nonsense values left out). */
export function filtersFromSearch(search: string): RespondentFilters {
  const q = new URLSearchParams(search);
  const out: RespondentFilters = {};
  for (const f of FILTERS) {
    const raw = q.get(f.key);
    if (raw === null) continue;
    const value = f.parse(raw);
    if (value !== undefined) out[f.key] = value;
  }
  // A range the wrong way round is no filter at all, as on the report.
  const bad = reversedRange(out);
  if (bad === 'age') {
    delete out.ageMin;
    delete out.ageMax;
  }
  if (reversedRange(out) === 'dates') {
    delete out.from;
    delete out.to;
  }
  return out;
}

/** Which range, if any, is the wrong way round (the server refuses both). */
export function reversedRange(f: RespondentFilters): 'age' | 'dates' | null {
  if (f.ageMin !== undefined && f.ageMax !== undefined && +f.ageMin > +f.ageMax) return 'age';
  if (f.from !== undefined && f.to !== undefined && f.from > f.to) return 'dates';
  return null;
}

/** The address with the filters (and the other list parameters given) replaced; pid first. */
export function searchWith(search: string, patch: { filters?: RespondentFilters; sort?: string }): string {
  const q = new URLSearchParams(search);
  if (patch.filters) {
    for (const k of KEYS) q.delete(k);
    for (const f of FILTERS) {
      const v = patch.filters[f.key];
      if (v !== undefined && v !== '') q.set(f.key, String(v));
    }
  }
  if (patch.sort !== undefined) {
    if (patch.sort === '' || patch.sort === DEFAULT_SORT) q.delete('sort');
    else q.set('sort', patch.sort);
  }
  return q.toString();
}

/** Newest first unless the reader sorts otherwise. */
export const DEFAULT_SORT: RespondentSort = '-started';

export function sortFromSearch(search: string): RespondentSort {
  const raw = new URLSearchParams(search).get('sort') ?? '';
  return (RESPONDENT_SORTS as readonly string[]).includes(raw) ? (raw as RespondentSort) : DEFAULT_SORT;
}

/** Whether any filter narrows the list. */
export const isFiltered = (f: RespondentFilters) => Object.values(f).some((v) => v !== undefined);
