import { sql } from 'kysely';
import type { Db } from '../db';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import { DAY_MS, dayDate, type GameDayStats, type GameStats } from '../../src/domain/players';

// What a game delivered, per UTC day (issue 24, part 3). `offered` is a counter row per game and day
// that POST /games/sdk/survey raises when it answers with a survey (countOffer); the respondents'
// numbers are counted from the respondents table (a game's respondents carry its id): started by
// their start, completed and screened out by their end. Days are UTC (day number = unix ms ÷ 86.4 M).

/** One more SDK call of this game answered with a survey, today (UTC). */
export async function countOffer(db: Db, gameId: number, now = Date.now()): Promise<void> {
  await db
    .insertInto('game_offers_daily')
    .values({ game_id: gameId, day: Math.floor(now / DAY_MS), offered: 1 })
    .onConflict((oc) =>
      oc.columns(['game_id', 'day']).doUpdateSet({ offered: sql`game_offers_daily.offered + 1` }),
    )
    .execute();
}

type Counts = Omit<GameDayStats, 'date'>;
const zero = (): Counts => ({
  offered: 0,
  started: 0,
  completed: 0,
  excluded: 0,
  screenedOut: 0,
  delivered: 0,
  failed: 0,
});

/** The game's numbers for the days fromDay..toDay (day numbers, both included), every day listed. */
export async function gameStats(db: Db, gameId: number, fromDay: number, toDay: number): Promise<GameStats> {
  const days = new Map<number, Counts>();
  for (let d = fromDay; d <= toDay; d++) days.set(d, zero());
  const add = (day: number, key: keyof Counts, n: number | string | bigint) => {
    const c = days.get(Number(day));
    if (c) c[key] += Number(n);
  };
  const start = fromDay * DAY_MS;
  const end = (toDay + 1) * DAY_MS;
  const day = (col: 'started_at' | 'finished_at') => sql<number>`(${sql.ref(col)} / ${sql.lit(DAY_MS)})`;

  const [offers, started, ended] = await Promise.all([
    db
      .selectFrom('game_offers_daily')
      .select(['day', 'offered'])
      .where('game_id', '=', gameId)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .execute(),
    db
      .selectFrom('respondents')
      .select([day('started_at').as('day'), (eb) => eb.fn.countAll<number>().as('n')])
      .where('game_id', '=', gameId)
      .where('started_at', '>=', start)
      .where('started_at', '<', end)
      .groupBy(sql`1`)
      .execute(),
    db
      .selectFrom('respondents')
      .select([day('finished_at').as('day'), 'status', 'excluded', (eb) => eb.fn.countAll<number>().as('n')])
      .where('game_id', '=', gameId)
      .where('finished_at', '>=', start)
      .where('finished_at', '<', end)
      .where('status', 'in', [RESPONDENT_STATUS.completed, RESPONDENT_STATUS.screenedOut])
      .groupBy([sql`1`, 'status', 'excluded'])
      .execute(),
  ]);
  for (const r of offers) add(r.day, 'offered', r.offered);
  for (const r of started) add(r.day, 'started', r.n);
  for (const r of ended) {
    add(r.day, r.status === RESPONDENT_STATUS.completed ? 'completed' : 'screenedOut', r.n);
    if (r.status === RESPONDENT_STATUS.completed && Number(r.excluded) === 1) add(r.day, 'excluded', r.n);
  }
  for (const r of await callbackCounts(db, gameId, start, end))
    add(r.day, r.delivered ? 'delivered' : 'failed', r.n);

  const list = [...days].map(([d, c]) => ({ date: dayDate(d), ...c }));
  const totals = zero();
  for (const d of list) for (const k of Object.keys(totals) as (keyof Counts)[]) totals[k] += d[k];
  return { gameId, from: dayDate(fromDay), to: dayDate(toDay), days: list, totals };
}

/**
 * Block callbacks of the game's respondents, delivered or failed for good, by day: `failed` counts
 * only deliveries that will not be tried again (failed on a 410, gave-up, refused); one still being
 * retried is neither. A delivery is dated by its delivery, or by the block's completion when it
 * failed (the outbox keeps no time of the last attempt). Test calls have no respondent: not counted.
 */
async function callbackCounts(
  db: Db,
  gameId: number,
  start: number,
  end: number,
): Promise<{ day: number; delivered: boolean; n: number }[]> {
  const when = sql<number>`coalesce(d.delivered_at, d.created_at)`;
  const rows = await db
    .selectFrom('callback_deliveries as d')
    .innerJoin('respondents as r', 'r.id', 'd.respondent_id')
    .select([
      sql<number>`(${when} / ${sql.lit(DAY_MS)})`.as('day'),
      'd.status',
      (eb) => eb.fn.countAll<number>().as('n'),
    ])
    .where('r.game_id', '=', gameId)
    .where('d.status', 'in', ['delivered', 'failed', 'gave-up', 'refused'])
    .where(when, '>=', start)
    .where(when, '<', end)
    .groupBy([sql`1`, 'd.status'])
    .execute();
  return rows.map((r) => ({ day: Number(r.day), delivered: r.status === 'delivered', n: Number(r.n) }));
}
