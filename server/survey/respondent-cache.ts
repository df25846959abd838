import type { Db } from '../db';
import type { RespondentRow } from '../repos/respondents';
import { RESPONDENT_STATUS } from '../db/tables-responses';

// Respondents answering now, by token hash, so an answer needs no read before its write. A kept
// row is only ever a guess: the answer's write is conditional on the respondent's state and status
// and on the project being open (server/repos/respondents.ts saveAnswer), and any answer not
// decided by a successful write (a resend, a refusal, a write that found the row moved) is decided
// again on a fresh read (server/survey/respond.ts submitPage). So another process writing the
// same respondent, or a project paused meanwhile, makes the guess fail, never a wrong answer.
// Only started respondents are kept; the oldest go first past MAX (a few KB each).

export type CachedRespondent = RespondentRow & { project_status: number };

const MAX = 5_000;
const caches = new WeakMap<Db, Map<string, CachedRespondent>>();

function cacheOf(db: Db) {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  return cache;
}

export function cachedRespondent(db: Db, tokenHash: string): CachedRespondent | undefined {
  return cacheOf(db).get(tokenHash);
}

/** Keeps the respondent as last read or written (forgets them once they are done). */
export function keepRespondent(db: Db, row: CachedRespondent): void {
  const cache = cacheOf(db);
  cache.delete(row.token_hash);
  if (row.status !== RESPONDENT_STATUS.started) return;
  if (cache.size >= MAX) cache.delete(cache.keys().next().value!);
  cache.set(row.token_hash, row);
}

export function forgetRespondent(db: Db, tokenHash: string): void {
  cacheOf(db).delete(tokenHash);
}
