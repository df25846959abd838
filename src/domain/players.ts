import * as v from 'valibot';
import type { Question } from './content/model';
import type { Reply } from './flow/reply';
import { AGE_MAX, AGE_MIN, EDUCATION_LEVELS, GENDERS, TARGET_FIELD_IDS, type TargetFieldId } from './lookups';
import { INT32_MAX, int32Max, isoDay, objectMessage, queryInt } from './validation';

// A game player's record (issue 24, part 2): the answers to questions with writeToDb go into the
// fields their dbFields name. Four names are mapped onto the target fields (GET /target-fields):
// gender, age, city, education, and take only the values those fields know; any other name keeps
// the answer as text. One pure module for the server (what to write) and the editor (when a
// question cannot map). Decisions: docs/decisions/players.md.

export type MappedField = TargetFieldId;
export const isMappedField = (name: string): name is MappedField =>
  (TARGET_FIELD_IDS as readonly string[]).includes(name);

/** The longest text kept in a free-named field. */
export const PLAYER_FIELD_MAX = 2000;

const norm = (s: string) => s.trim().toLowerCase().replace(/ё/g, 'е').replace(/\s+/g, ' ');

// Words a researcher may write as the answer for a value: the value's id, its label in both
// languages (src/i18n/*/projects.ts: projects.gender, projects.education) and the usual short forms.
const GENDER_WORDS: Record<(typeof GENDERS)[number], string[]> = {
  male: ['male', 'man', 'm', 'мужской', 'мужчина', 'муж', 'м'],
  female: ['female', 'woman', 'f', 'женский', 'женщина', 'жен', 'ж'],
};
const EDUCATION_WORDS: Record<(typeof EDUCATION_LEVELS)[number], string[]> = {
  basic: [
    'basic',
    'basic general (9 grades)',
    'basic general',
    'основное общее (9 классов)',
    'основное общее',
  ],
  secondary: [
    'secondary',
    'secondary general (11 grades)',
    'secondary general',
    'среднее общее (11 классов)',
    'среднее общее',
    'среднее',
  ],
  vocational: ['vocational', 'среднее профессиональное', 'среднее специальное'],
  incompleteHigher: ['incompletehigher', 'incomplete higher', 'неоконченное высшее'],
  higher: ['higher', 'высшее'],
  postgraduate: ['postgraduate', 'academic degree', 'учёная степень', 'ученая степень'],
};
function wordIndex<T extends string>(table: Record<T, string[]>): Map<string, T> {
  const out = new Map<string, T>();
  for (const [value, words] of Object.entries(table) as [T, string[]][])
    for (const w of words) out.set(norm(w), value);
  return out;
}
const GENDER_INDEX = wordIndex(GENDER_WORDS);
const EDUCATION_INDEX = wordIndex(EDUCATION_WORDS);

/** The gender value a text names, or null. */
export const genderOf = (text: string) => GENDER_INDEX.get(norm(text)) ?? null;
/** The education level a text names, or null. */
export const educationOf = (text: string) => EDUCATION_INDEX.get(norm(text)) ?? null;
/** An age from a number or a text of digits: an integer within AGE_MIN..AGE_MAX, or null. */
export function ageOf(x: number | string): number | null {
  const n = typeof x === 'number' ? x : /^\s*\d{1,3}\s*$/.test(x) ? Number(x) : NaN;
  return Number.isInteger(n) && n >= AGE_MIN && n <= AGE_MAX ? n : null;
}

const CHOICE = new Set(['oneAnswer', 'fewAnswers', 'screening', 'qualification']);

/** The texts a reply amounts to: picked answers' texts and "other", or the typed / picked text. */
function replyTexts(q: Question, reply: Reply): string[] {
  if (CHOICE.has(q.category)) {
    const byId = new Map(q.answers.map((a) => [a.id, a.text]));
    const texts = (reply.answers ?? []).map((id) => byId.get(id) ?? '');
    if (reply.other?.trim()) texts.push(reply.other.trim());
    return texts;
  }
  if (q.category === 'open' || q.category === 'cityAuto' || q.category === 'regionAuto')
    return reply.text?.trim() ? [reply.text.trim()] : [];
  return [];
}

/**
 * The value a reply gives a mapped field, or null when it does not map (then it is stored nowhere).
 * A single text (one picked answer, or the typed text) maps when it names a value; a number when it
 * is an age. `isCity` checks a city id against the lookup (the server's cities data).
 */
export function mappedValue(
  field: MappedField,
  q: Question,
  reply: Reply,
  isCity: (id: string) => boolean,
): string | number | null {
  const texts = replyTexts(q, reply);
  const one = texts.length === 1 ? texts[0] : null;
  switch (field) {
    case 'gender':
      return one === null || q.category === 'cityAuto' || q.category === 'regionAuto' ? null : genderOf(one);
    case 'education':
      return one === null || q.category === 'cityAuto' || q.category === 'regionAuto'
        ? null
        : educationOf(one);
    case 'age':
      if (q.category === 'fromTo' || q.category === 'slider')
        return typeof reply.value === 'number' ? ageOf(reply.value) : null;
      return one === null || q.category === 'cityAuto' || q.category === 'regionAuto' ? null : ageOf(one);
    case 'city':
      return q.category === 'cityAuto' && one !== null && isCity(one) ? one : null;
  }
}

/** A free-named field's text: the picked answers' texts, the typed text, the number, the ranking, the matrix. */
export function fieldText(q: Question, reply: Reply): string | null {
  let out: string;
  const answerText = (id: string) => q.answers.find((a) => a.id === id)?.text ?? '';
  if (q.category === 'matrix') {
    const rows = new Map(q.statements.map((s) => [s.id, s.text]));
    out = Object.entries(reply.cells ?? {})
      .map(([s, a]) => `${rows.get(s) ?? ''}: ${answerText(a)}`)
      .join('; ');
  } else if (q.category === 'sortable') out = (reply.answers ?? []).map(answerText).join('; ');
  else if (typeof reply.value === 'number') out = String(reply.value);
  else out = replyTexts(q, reply).join('; ');
  out = out.trim();
  return out === '' ? null : out.slice(0, PLAYER_FIELD_MAX);
}

/** Why a question cannot (always) fill a mapped field; the editor shows it beside "Fields to write". */
export type MappingProblem =
  /** No answer of this category can ever name a value of the field. */
  | { field: MappedField; code: 'never' }
  /** Free text: stored only when the typed text is exactly a value. */
  | { field: MappedField; code: 'freeText' }
  /** These answers (texts) name no value: picking one stores nothing. */
  | { field: MappedField; code: 'answers'; answers: string[] }
  /** Part of the scale lies outside the ages AGE_MIN..AGE_MAX. */
  | { field: MappedField; code: 'range'; min: number; max: number };

export function mappingProblems(q: Question): MappingProblem[] {
  if (!q.writeToDb) return [];
  const out: MappingProblem[] = [];
  for (const name of new Set(q.dbFields)) {
    if (!isMappedField(name)) continue;
    const p = mappingProblem(name, q);
    if (p) out.push(p);
  }
  return out;
}

function mappingProblem(field: MappedField, q: Question): MappingProblem | null {
  if (field === 'city') return q.category === 'cityAuto' ? null : { field, code: 'never' };
  if (field === 'age' && (q.category === 'fromTo' || q.category === 'slider')) {
    const scale = q.scale ?? (q.category === 'fromTo' ? { min: 1, max: 10 } : { min: 0, max: 100 });
    if (scale.max < AGE_MIN || scale.min > AGE_MAX) return { field, code: 'never' };
    if (scale.min < AGE_MIN || scale.max > AGE_MAX)
      return { field, code: 'range', min: AGE_MIN, max: AGE_MAX };
    return null;
  }
  if (q.category === 'open') return { field, code: 'freeText' };
  if (!CHOICE.has(q.category)) return { field, code: 'never' };
  const maps = (t: string) =>
    field === 'gender'
      ? genderOf(t) !== null
      : field === 'education'
        ? educationOf(t) !== null
        : ageOf(t) !== null;
  const bad = q.answers.map((a) => a.text).filter((t) => !maps(t));
  if (bad.length === q.answers.length && q.other === null) return { field, code: 'never' };
  return bad.length > 0 ? { field, code: 'answers', answers: bad } : null;
}

// ---- the calls (GET/DELETE /games/player, GET /games/stats) ----

const gameId = queryInt(1, INT32_MAX);
/** An SDK player id as POST /games/sdk/survey takes it (trimmed, 1–128 characters, no control characters). */
const playerId = v.pipe(
  v.string('type'),
  v.trim(),
  v.minLength(1, 'required'),
  v.maxLength(128, 'tooLong'),
  v.regex(/^[^\p{Cc}]*$/u, 'controlChars'),
);

export const PlayerQuery = v.object({ gameId, playerId });
/** Strict, as every body (issue 34): an unknown field is refused by name, and nothing is erased. */
export const PlayerBody = v.strictObject(
  {
    gameId: v.pipe(v.number('type'), v.integer('integer'), v.minValue(1, 'positiveInteger'), int32Max),
    playerId,
  },
  objectMessage,
);

/** What GET /games/player answers. */
export interface PlayerRecord {
  gameId: number;
  playerId: string;
  gender: string | null;
  age: number | null;
  city: string | null;
  education: string | null;
  /** Free-named fields (dbFields other than the four), name → text. */
  fields: Record<string, string>;
  createdAt: number;
  updatedAt: number;
}

/** What DELETE /games/player answers: whether a record was erased, how many respondents were unlinked. */
export interface PlayerErasure {
  record: boolean;
  respondents: number;
}

/** The longest span GET /games/stats covers, in days (a leap year). */
export const STATS_MAX_DAYS = 366;
const date = v.pipe(
  isoDay,
  v.check((s) => s >= '2000-01-01' && s <= '2100-12-31', 'invalid'),
);
/** from ≤ to and the span's length are checked by the route (one message for both). */
export const StatsQuery = v.object({ gameId, from: v.optional(date), to: v.optional(date) });

/** One UTC day of GET /games/stats. */
export interface GameDayStats {
  date: string;
  /** SDK calls for this game answered with a survey address. */
  offered: number;
  /** Respondents who came from this game and started. */
  started: number;
  completed: number;
  /** Of the completed, those the researcher excluded (issue 31: rejected completes), by their end. */
  excluded: number;
  /** Turned away by a screening question or a full portrait. */
  screenedOut: number;
  /** Block callbacks of this game's respondents delivered / failed for good. */
  delivered: number;
  failed: number;
}
export interface GameStats {
  gameId: number;
  from: string;
  to: string;
  days: GameDayStats[];
  totals: Omit<GameDayStats, 'date'>;
}

export const DAY_MS = 86_400_000;
export const dayNumber = (isoDate: string) => Math.floor(Date.parse(`${isoDate}T00:00:00Z`) / DAY_MS);
export const dayDate = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
