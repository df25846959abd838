import { sql } from 'kysely';
import type { Db } from '../db';

// Fixed-window counters kept in the database, so every server process sees the same count and a
// restart does not reset them.

export interface LimitState {
  count: number;
  /** Milliseconds until the window resets. */
  retryInMs: number;
}

export async function peek(db: Db, key: string, windowMs: number, now = Date.now()): Promise<LimitState> {
  const row = await db.selectFrom('rate_limits').selectAll().where('key', '=', key).executeTakeFirst();
  if (!row || now - row.window_start >= windowMs) return { count: 0, retryInMs: 0 };
  return { count: row.count, retryInMs: windowMs - (now - row.window_start) };
}

/** Adds one to the key's counter, starting a new window when the old one has passed. */
export async function hit(db: Db, key: string, windowMs: number, now = Date.now()): Promise<void> {
  const expired = sql<boolean>`rate_limits.window_start <= ${now - windowMs}`;
  await db
    .insertInto('rate_limits')
    .values({ key, window_start: now, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql`case when ${expired} then 1 else rate_limits.count + 1 end`,
        window_start: sql`case when ${expired} then ${now} else rate_limits.window_start end`,
      }),
    )
    .execute();
}

export async function reset(db: Db, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}
