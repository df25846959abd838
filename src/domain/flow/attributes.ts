import * as v from 'valibot';
import { AGE_MAX, AGE_MIN, EDUCATION_LEVELS, GENDERS } from '../lookups';
import type { Portrait } from '../content/model';
import { objectMessage } from '../validation';

// Who a respondent is, as far as the portraits and the reports' filters care: from a game's SDK
// (the player) or from the optional profile step of a direct link. Every field may be unknown.

// Messages are i18n keys of the `validation` group, as in every other body (issue 26).
const short = (max: number) =>
  v.pipe(
    v.string('type'),
    v.trim(),
    v.maxLength(max, 'tooLong'),
    v.check((s) => !s.includes('\u0000'), 'controlChars'),
  );

/** Strict: a field the profile step does not have is refused by name (issue 26). */
export const AttributesSchema = v.strictObject(
  {
    playerId: v.optional(v.nullable(v.pipe(short(128), v.minLength(1, 'required')))),
    gender: v.optional(v.nullable(v.picklist(GENDERS, 'invalid'))),
    age: v.optional(
      v.nullable(
        v.pipe(
          v.number('type'),
          v.integer('integer'),
          v.minValue(AGE_MIN, 'tooSmall'),
          v.maxValue(AGE_MAX, 'tooBig'),
        ),
      ),
    ),
    /** A city id of the cities lookup, e.g. "MOS:Podolsk" (checked against the list by the server). */
    city: v.optional(v.nullable(v.pipe(short(120), v.minLength(1, 'required')))),
    region: v.optional(v.nullable(v.pipe(short(10), v.minLength(1, 'required')))),
    education: v.optional(v.nullable(v.picklist(EDUCATION_LEVELS, 'invalid'))),
    platform: v.optional(v.nullable(v.pipe(short(64), v.minLength(1, 'required')))),
  },
  objectMessage,
);
export type Attributes = v.InferOutput<typeof AttributesSchema>;

/** Whether the respondent fits every condition of the portrait. An unknown attribute fits no condition on it. */
export function matchesPortrait(p: Portrait, who: Attributes): boolean {
  return p.params.every((param) => {
    const field = param.field;
    if (field === 'age') {
      if (who.age === undefined || who.age === null) return false;
      if (param.min !== null && who.age < param.min) return false;
      if (param.max !== null && who.age > param.max) return false;
      if (param.values.length > 0 && !param.values.includes(String(who.age))) return false;
      return true;
    }
    const value = (who as Record<string, unknown>)[field];
    if (param.values.length === 0) return true;
    if (value === undefined || value === null) return false;
    if (field === 'city') {
      // A portrait may name a region code alone ("MOS") as well as a city id ("MOS:Podolsk").
      const city = String(value);
      return param.values.some((x) => x === city || (!x.includes(':') && city.startsWith(`${x}:`)));
    }
    return param.values.includes(String(value));
  });
}

/** Whether any portrait has a condition, so that asking a direct-link respondent about themselves helps. */
export function portraitsAsk(portraits: readonly Portrait[]): boolean {
  return portraits.some((p) => p.params.length > 0);
}

/** What the survey link's profile step asks (the cities lookup gives the region with the city). */
export const PROFILE_FIELDS = ['gender', 'age', 'city', 'education'] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];

export interface LinkProfile {
  /**
   * none: the link starts at once. optional: a direct link (the researcher's own audience) asks, and
   * a visitor may skip (they are taken without a portrait). required: every respondent must fit a
   * portrait (a target project, or any project reached through portraits), so the link asks and
   * matches; skipping would only ever end in "not for you".
   */
  ask: 'none' | 'optional' | 'required';
  /** The fields the portraits have conditions on: the ones the step must have answered. */
  fields: ProfileField[];
}

export function linkProfile(directLink: boolean, portraits: readonly Portrait[]): LinkProfile {
  if (!portraitsAsk(portraits)) return { ask: 'none', fields: [] };
  const used = new Set(
    portraits.flatMap((p) => p.params.map((x) => (x.field === 'region' ? 'city' : x.field))),
  );
  return {
    ask: directLink ? 'optional' : 'required',
    fields: PROFILE_FIELDS.filter((f) => used.has(f)),
  };
}
