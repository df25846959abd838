import * as v from 'valibot';
import {
  CATEGORY_RULES,
  DEFAULT_SCALE,
  DEFAULT_STARS,
  NPS_SCALE,
  OPEN_ANSWER_MAX,
} from '../content/categories';
import { objectMessage } from '../validation';
import type { Answer, Question, Statement } from '../content/model';

// What a respondent sends for one page (one question), how it is checked against what the page
// offered, and the rows it becomes (server/db/tables-responses.ts documents their meaning).

// Messages are i18n keys of the `validation` group (issue 26: plain, translated reasons).
const idText = v.pipe(v.string('type'), v.regex(/^[A-Za-z0-9_-]{1,32}$/, 'invalid'));
/**
 * Free text: the "other" answer, and an open answer whose question sets no length. Bounded so one
 * answer cannot flood the table; an open question's own length (textLength) may allow up to
 * OPEN_ANSWER_MAX, which is all the payload schema lets through.
 */
export const REPLY_TEXT_MAX = 2000;
const freeText = (max: number) =>
  v.pipe(
    v.string('type'),
    v.maxLength(max, 'tooLong'),
    v.check((s) => !s.includes('\u0000'), 'controlChars'),
  );

export const ReplySchema = v.strictObject(
  {
    /** Picked answers (choice questions), or every offered answer in the ranked order (sortable). */
    answers: v.optional(v.pipe(v.array(idText, 'type'), v.maxLength(100, 'tooBig'))),
    /** The "other" answer's text, when it is picked. */
    other: v.optional(v.nullable(freeText(REPLY_TEXT_MAX))),
    /** fromTo, slider, nps, starRating. */
    value: v.optional(v.nullable(v.pipe(v.number('type'), v.finite('type')))),
    /** open (free text), regionAuto / cityAuto (the place's stable id from the cities lookup). */
    text: v.optional(v.nullable(freeText(OPEN_ANSWER_MAX))),
    /** matrix: statement id → answer id. */
    cells: v.optional(
      v.pipe(
        v.record(idText, idText, 'type'),
        v.check((r) => Object.keys(r).length <= 100, 'invalid'),
      ),
    ),
  },
  objectMessage,
);
export type Reply = v.InferOutput<typeof ReplySchema>;

/** Why a reply does not fit its page. */
export type ReplyProblem =
  | { code: 'required' }
  | { code: 'tooFew'; min: number }
  | { code: 'tooMany'; max: number }
  | { code: 'notOffered' }
  | { code: 'outOfRange'; min: number; max: number }
  | { code: 'tooShort'; min: number }
  | { code: 'tooLong'; max: number }
  | { code: 'outsideRegion' }
  | { code: 'invalid' };

/** What one page offers: the answers and rows in the order shown (after shuffle and recall). */
export interface PageOffer {
  question: Question;
  answers: Answer[];
  statements: Statement[];
}

export function scaleOf(q: Question): { min: number; max: number; step: number } {
  const r = CATEGORY_RULES[q.category];
  if (r.scale === 'nps') return { ...NPS_SCALE };
  if (r.stars) return { min: 1, max: q.stars ?? DEFAULT_STARS, step: 1 };
  if (r.scale) {
    const s = q.scale ?? DEFAULT_SCALE[r.scale];
    return { min: s.min, max: s.max, step: r.scale === 'range' ? 1 : s.step > 0 ? s.step : 1 };
  }
  return { min: 0, max: 0, step: 1 };
}

/**
 * How many characters an open answer may have: the question's textLength, else up to REPLY_TEXT_MAX.
 * Counted as the browser's maxLength counts (UTF-16 units) on the trimmed text, which is what is stored.
 */
export function textLimits(q: Question): { min: number; max: number } {
  const t = q.category === 'open' ? q.textLength : null;
  if (!t) return { min: 0, max: REPLY_TEXT_MAX };
  const max = Math.max(1, Math.min(t.max, OPEN_ANSWER_MAX));
  return { min: Math.max(0, Math.min(t.min, max)), max };
}

/** Whether a place id of the cities lookup ("MOS:Podolsk") may answer the city question (its region, if set). */
export function placeInRegion(q: Question, placeId: string): boolean {
  return !q.region || placeId.startsWith(`${q.region}:`);
}

/** The answer count a choice question needs: its limit (few answers), else one for single, one to all for few. */
export function countLimit(page: PageOffer): { min: number; max: number } {
  const q = page.question;
  const r = CATEGORY_RULES[q.category];
  const offered = page.answers.length + (q.other !== null && r.other ? 1 : 0);
  if (r.single) return { min: 1, max: 1 };
  if (r.answerLimit && q.answerLimit) {
    return { min: Math.max(1, q.answerLimit.min), max: Math.max(1, Math.min(q.answerLimit.max, offered)) };
  }
  return { min: 1, max: Math.max(1, offered) };
}

const blank = (s: string | null | undefined) => s === undefined || s === null || s.trim() === '';

/** Null when the reply fits the page; else the first problem, in the order a respondent would fix them. */
export function checkReply(page: PageOffer, reply: Reply): ReplyProblem | null {
  const q = page.question;
  const r = CATEGORY_RULES[q.category];
  const offered = new Set(page.answers.map((a) => a.id));
  if (q.category === 'sortable') {
    const order = reply.answers ?? [];
    if (order.length === 0) return { code: 'required' };
    if (order.length !== offered.size || new Set(order).size !== order.length) return { code: 'invalid' };
    if (order.some((id) => !offered.has(id))) return { code: 'notOffered' };
    return null;
  }
  if (q.category === 'matrix') {
    const cells = reply.cells ?? {};
    const rows = new Set(page.statements.map((s) => s.id));
    for (const [row, col] of Object.entries(cells)) {
      if (!rows.has(row) || !offered.has(col)) return { code: 'notOffered' };
    }
    if (page.statements.some((s) => !cells[s.id])) return { code: 'required' };
    return null;
  }
  if (r.answers) {
    const picked = reply.answers ?? [];
    if (new Set(picked).size !== picked.length) return { code: 'invalid' };
    if (picked.some((id) => !offered.has(id))) return { code: 'notOffered' };
    const otherAllowed = q.other !== null && r.other;
    if (!otherAllowed && reply.other !== undefined && reply.other !== null) return { code: 'notOffered' };
    const count = picked.length + (otherAllowed && !blank(reply.other) ? 1 : 0);
    if (count === 0) return { code: 'required' };
    const limit = countLimit(page);
    if (count > limit.max) return { code: 'tooMany', max: limit.max };
    if (count < limit.min) return { code: 'tooFew', min: limit.min };
    return null;
  }
  if (r.scale || r.stars) {
    if (reply.value === undefined || reply.value === null) return { code: 'required' };
    const s = scaleOf(q);
    const steps = (reply.value - s.min) / s.step;
    if (reply.value < s.min || reply.value > s.max) return { code: 'outOfRange', min: s.min, max: s.max };
    if (Math.abs(steps - Math.round(steps)) > 1e-6) return { code: 'outOfRange', min: s.min, max: s.max };
    return null;
  }
  // open, regionAuto, cityAuto
  if (blank(reply.text)) return { code: 'required' };
  if (r.lookup) {
    // The lookup's ids are Latin names with apostrophes, quotes and diacritics ("SAM:Tol’yatti",
    // "ORL:Orël"); the server checks the id against the list itself.
    if (!/^[\p{L}\p{N}_:.,'’”" ()-]{1,120}$/u.test(reply.text!)) return { code: 'invalid' };
    if (r.lookup === 'city' && !placeInRegion(q, reply.text!.trim())) return { code: 'outsideRegion' };
    return null;
  }
  const length = reply.text!.trim().length;
  const t = textLimits(q);
  if (length > t.max) return { code: 'tooLong', max: t.max };
  if (length < t.min) return { code: 'tooShort', min: t.min };
  return null;
}

/** Only the fields the category uses, so a stored reply compares equal to its resend. */
export function normalizeReply(q: Question, reply: Reply): Reply {
  const r = CATEGORY_RULES[q.category];
  if (q.category === 'matrix') {
    const cells: Record<string, string> = {};
    for (const k of Object.keys(reply.cells ?? {}).sort()) cells[k] = reply.cells![k];
    return { cells };
  }
  if (q.category === 'sortable') return { answers: [...(reply.answers ?? [])] };
  if (r.answers) {
    const out: Reply = { answers: [...(reply.answers ?? [])] };
    if (!blank(reply.other)) out.other = reply.other!.trim();
    return out;
  }
  if (r.scale || r.stars) return { value: reply.value ?? null };
  return { text: (reply.text ?? '').trim() };
}

export function sameReply(a: Reply, b: Reply): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** One stored row (respondent_answers without its ids). */
export interface AnswerRow {
  question_id: string;
  answer_id: string | null;
  statement_id: string | null;
  value: number | null;
  text: string | null;
}

/**
 * The rows of one reply: one per picked answer (the "other" answer as answer_id null with its text),
 * per matrix cell (statement_id + answer_id), per ranked answer (value = rank from 1); one row with
 * value for fromTo, slider, nps and stars; one row with text for open answers and places.
 */
export function replyRows(q: Question, reply: Reply): AnswerRow[] {
  const r = CATEGORY_RULES[q.category];
  const row = (p: Partial<AnswerRow>): AnswerRow => ({
    question_id: q.id,
    answer_id: null,
    statement_id: null,
    value: null,
    text: null,
    ...p,
  });
  if (q.category === 'matrix')
    return Object.entries(reply.cells ?? {}).map(([s, a]) => row({ statement_id: s, answer_id: a }));
  if (q.category === 'sortable')
    return (reply.answers ?? []).map((a, i) => row({ answer_id: a, value: i + 1 }));
  if (r.answers) {
    const rows = (reply.answers ?? []).map((a) => row({ answer_id: a }));
    if (!blank(reply.other)) rows.push(row({ text: reply.other!.trim() }));
    return rows;
  }
  if (r.scale || r.stars) return [row({ value: reply.value ?? null })];
  return [row({ text: (reply.text ?? '').trim() })];
}
