import * as v from 'valibot';
import { INT32_MAX, queryInt } from './validation';

// Lookup lists the editor needs (spec sections 3 and 7: GET /target-platforms, /target-fields,
// /cities). The spec shows neither their fields nor their values; these are our decisions, written
// down in docs/decisions/projects.md. Ids are stable: projects and portraits store them. Labels live
// in i18n under projects.platforms.<code>, projects.targetFields.<id> and projects.education.<code>.

/**
 * Where a targeted survey runs: the game platforms and networks whose players answer it through the
 * SDK. A project lists the platforms it targets; GET /projects?tpid=<id> filters by one of them.
 */
export const TARGET_PLATFORMS = [
  { id: 1, code: 'vkMiniApps' },
  { id: 2, code: 'vkPlay' },
  { id: 3, code: 'okGames' },
  { id: 4, code: 'yandexGames' },
  { id: 5, code: 'telegram' },
  { id: 6, code: 'android' },
  { id: 7, code: 'ios' },
  { id: 8, code: 'pc' },
  { id: 9, code: 'web' },
] as const;
export type TargetPlatformCode = (typeof TARGET_PLATFORMS)[number]['code'];
export const TARGET_PLATFORM_IDS: readonly number[] = TARGET_PLATFORMS.map((p) => p.id);

export interface TargetPlatform {
  id: number;
  code: TargetPlatformCode;
  name: string;
}

/** Respondent age bounds (DESIGN.md 5): a portrait's min is not below, its max not above. */
export const AGE_MIN = 14;
export const AGE_MAX = 99;

export const GENDERS = ['male', 'female'] as const;
/** Levels of the Russian education system, from the lowest. */
export const EDUCATION_LEVELS = [
  'basic',
  'secondary',
  'vocational',
  'incompleteHigher',
  'higher',
  'postgraduate',
] as const;

export const TARGET_FIELD_IDS = ['gender', 'age', 'city', 'education'] as const;
export type TargetFieldId = (typeof TARGET_FIELD_IDS)[number];

/** What GET /target-fields answers: each field with the way its value is chosen. */
export type TargetField =
  | { id: 'gender' | 'education'; name: string; kind: 'select'; values: { id: string; name: string }[] }
  | { id: 'age'; name: string; kind: 'range'; min: number; max: number }
  | { id: 'city'; name: string; kind: 'lookup'; source: '/cities' };

export const CITY_LIMIT_DEFAULT = 20;
export const CITY_LIMIT_MAX = 100;

const positiveQueryInt = queryInt(1, INT32_MAX);

export const CitiesQuery = v.object({
  /** Part of the name in Cyrillic or Latin script; empty lists the largest cities first. */
  search: v.optional(v.pipe(v.string('type'), v.trim(), v.maxLength(100, 'tooLong')), ''),
  limit: v.pipe(
    v.optional(positiveQueryInt, String(CITY_LIMIT_DEFAULT)),
    v.transform((n) => Math.min(n, CITY_LIMIT_MAX)),
  ),
  /** A region code (ISO 3166-2 without the country, e.g. "MOS") to search within. */
  region: v.optional(v.pipe(v.string('type'), v.trim(), v.maxLength(10, 'tooLong'))),
});
export type CitiesQuery = v.InferOutput<typeof CitiesQuery>;

export interface City {
  /** Stable: the region code and the Latin name, e.g. "MOS:Podolsk". */
  id: string;
  /** In the caller's language: Russian for the cities we ship Russian names for, else the Latin name. */
  name: string;
  /** The name in Latin script as the data source spells it. */
  latinName: string;
  region: { id: string; name: string };
}
