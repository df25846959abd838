import type { Db } from '../db';
import { HttpError } from '../http/errors';
import { MemoryLimiter } from '../http/memory-limit';
import { countHits } from '../repos/respondents';
import { SURVEY_TEXTS, type SurveyLocale } from '../../src/i18n/survey';

// The respondents' rate limits: starts per address in the database, answers in memory.

export interface RateLimit {
  key: string;
  max: number;
}
const LIMIT_WINDOW_MS = 60_000;

function tooManyRequests() {
  return new HttpError(
    429,
    (_t: unknown, locale: string) =>
      SURVEY_TEXTS[(locale === 'en' ? 'en' : 'ru') as SurveyLocale].errors.tooMany429(1),
    {
      code: 'too-many-requests',
      headers: { 'retry-after': String(LIMIT_WINDOW_MS / 1000) },
    },
  );
}

// Answers are limited in memory, per server process and database (see server/http/memory-limit.ts
// and docs/decisions/survey-answers.md): a database counter cost every answer a round trip, and on
// PostgreSQL a row lock on the per-address counter that all answers from one address queued on.
const answerLimiters = new WeakMap<Db, MemoryLimiter>();

/** Answer limits per respondent and per address: a 429 when either is past its limit. */
export function limitAnswers(db: Db, limits: RateLimit[], now = Date.now()): void {
  if (limits.length === 0) return;
  let limiter = answerLimiters.get(db);
  if (!limiter) answerLimiters.set(db, (limiter = new MemoryLimiter(LIMIT_WINDOW_MS)));
  if (!limiter.hit(limits, now)) throw tooManyRequests();
}

/** Rate limits kept in the database (starts per address): answers a 429 when one is past its limit. */
export async function limitRate(db: Db, keys: RateLimit[]): Promise<void> {
  if (!(await countHits(db, keys, LIMIT_WINDOW_MS))) throw tooManyRequests();
}
