import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db, Dialect } from '../db';
import type { CallbackDeliveriesTable } from '../db/tables-callbacks';
import { callbackSecret, signature } from './deliveries';
import { CALL_TIMEOUT_MS, CallAgents, postChecked, type CallResult } from './outbound';
import { countDelivery } from '../ops/meters';

// The sender (docs/decisions/callbacks.md): takes due deliveries from the outbox, calls them, and
// writes down what happened. Any number of server processes may run one over the same database: a
// delivery is claimed with a lease (PostgreSQL: FOR UPDATE SKIP LOCKED, so two senders never claim
// the same row; SQLite: one writer, the claiming UPDATE is atomic), so it is sent by one process at
// a time, and a crashed process's claims are taken over when their lease runs out. After a crash
// (kill -9) every delivery not marked delivered is sent again, with the same id, which receivers
// use to de-duplicate.

const DAY_MS = 24 * 3600_000;
/** Calls in flight per process (a call's slot is free once it has its answer; the result is written after). */
const CONCURRENCY = 32;
/**
 * Claimed deliveries a process holds at most, in flight or waiting for a slot: claims are taken
 * ahead of the calls, so a freed slot starts the next call at once instead of after a claim's round
 * trip. On PostgreSQL under load the claims, not the calls, were the limit (377 deliveries a second):
 * one claim at a time, each taking the 8–14 slots freed meanwhile, at 40–70 ms a claim. A waiting
 * delivery is a few batches of calls away from its call, far inside the lease (≥ 6 s).
 */
const HELD = 4 * CONCURRENCY;
/**
 * While deliveries are held, claim only when at least this many more can be: a claim is a write and
 * a round trip whatever its size, so it takes many at once (the held ones keep the calls going).
 */
const CLAIM_BATCH = CONCURRENCY;

/**
 * The gaps before attempts 2…max: base, doubling, capped so that the sum (the time from the first
 * attempt to the last) stays within 24 hours.
 */
export function retryGaps(baseMs: number, maxAttempts: number): number[] {
  const raw = Array.from({ length: Math.max(0, maxAttempts - 1) }, (_, i) => baseMs * 2 ** i);
  const sum = (cap: number) => raw.reduce((s, g) => s + Math.min(g, cap), 0);
  if (sum(Infinity) <= DAY_MS) return raw;
  let lo = 0;
  let hi = DAY_MS;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (sum(mid) <= DAY_MS) lo = mid;
    else hi = mid;
  }
  return raw.map((g) => Math.floor(Math.min(g, lo)));
}

/** The gap after the given number of failed attempts, with jitter: between half and all of it. */
export function retryDelay(gaps: number[], attempts: number, random = Math.random()): number {
  const gap = gaps[Math.min(attempts, gaps.length) - 1] ?? 0;
  return Math.round(gap * (0.5 + 0.5 * random));
}

type Row = CallbackDeliveriesTable;
/** A claimed delivery with its project's secret (null: the project has none yet). */
type Claimed = Row & { secret: string | null };

export interface Sender {
  /** Looks for due deliveries now (after a commit that wrote one). */
  wake: () => void;
  /**
   * Stops claiming and waits for the calls in flight, until `deadline` (unix ms) at most: the claims
   * of calls still out then, and of claimed deliveries not called yet, are released, so that another process sends them at once rather than
   * after the lease (the receiver may get such a call twice, with the same delivery id).
   */
  stop: (deadline?: number) => Promise<void>;
}

const senders = new WeakMap<Db, Sender>();
/** Wakes this process's sender for the database (after a commit that wrote a delivery). */
export function wakeSender(db: Db): void {
  senders.get(db)?.wake();
}

async function claim(
  db: Db,
  dialect: Dialect,
  now: number,
  leaseUntil: number,
  limit: number,
): Promise<Claimed[]> {
  const skipLocked = dialect === 'postgres' ? sql` for update skip locked` : sql``;
  // The project's signing secret comes with the claim (one round trip, not two); null for a
  // project that has none yet (made by secretsOf).
  const { rows } = await sql<Claimed>`
    update callback_deliveries set lease_until = ${leaseUntil}
    where id in (
      select id from callback_deliveries
      where status = 'pending' and next_attempt_at <= ${now} and (lease_until is null or lease_until < ${now})
      order by next_attempt_at limit ${limit}${skipLocked})
    returning *, (select s.secret from project_callback_secrets s
      where s.project_id = callback_deliveries.project_id) as secret`.execute(db);
  return rows.map((r) => ({ ...r, attempts: Number(r.attempts), lease_until: Number(r.lease_until) }));
}

/** What an attempt's result makes of the delivery. */
export function outcome(
  result: CallResult,
  attempts: number,
  gaps: number[],
  maxAttempts: number,
  now: number,
): Pick<Row, 'status' | 'attempts' | 'last_status_code' | 'last_error' | 'next_attempt_at' | 'delivered_at'> {
  if (result.kind === 'refused')
    return {
      status: 'refused',
      attempts,
      last_status_code: null,
      last_error: `refused: ${result.reason}`.slice(0, 500),
      next_attempt_at: now,
      delivered_at: null,
    };
  const tried = attempts + 1;
  const code = result.kind === 'response' ? result.status : null;
  const error =
    result.kind === 'error' ? result.error.slice(0, 500) : code && code >= 300 ? `HTTP ${code}` : null;
  if (code !== null && code >= 200 && code < 300)
    return {
      status: 'delivered',
      attempts: tried,
      last_status_code: code,
      last_error: null,
      next_attempt_at: now,
      delivered_at: now,
    };
  if (code === 410)
    return {
      status: 'failed',
      attempts: tried,
      last_status_code: code,
      last_error: error,
      next_attempt_at: now,
      delivered_at: null,
    };
  if (tried >= maxAttempts)
    return {
      status: 'gave-up',
      attempts: tried,
      last_status_code: code,
      last_error: error,
      next_attempt_at: now,
      delivered_at: null,
    };
  return {
    status: 'pending',
    attempts: tried,
    last_status_code: code,
    last_error: error,
    next_attempt_at: now + retryDelay(gaps, tried),
    delivered_at: null,
  };
}

/** Rows a statement of recordResults writes at most (8 parameters each). */
const RECORD_ROWS = 100;

/**
 * Writes attempts' results, each only while the claim is still ours (a sender that stalled past its
 * lease writes nothing): one UPDATE … FROM a VALUES list per RECORD_ROWS rows, on both databases
 * (SQLite has UPDATE … FROM since 3.33; the casts give PostgreSQL the values' types).
 */
export async function recordResults(
  db: Db,
  results: { row: Pick<Row, 'id' | 'lease_until'>; next: ReturnType<typeof outcome> }[],
): Promise<void> {
  for (let i = 0; i < results.length; i += RECORD_ROWS) {
    const values = results.slice(i, i + RECORD_ROWS).map(
      ({ row, next }) =>
        sql`(cast(${row.id} as text), cast(${row.lease_until} as bigint), cast(${next.status} as text),
          cast(${next.attempts} as integer), cast(${next.last_status_code} as integer),
          cast(${next.last_error} as text), cast(${next.next_attempt_at} as bigint),
          cast(${next.delivered_at} as bigint))`,
    );
    await sql`
      with v (id, lease, status, attempts, code, error, next_at, delivered_at) as (values ${sql.join(values)})
      update callback_deliveries set status = v.status, attempts = v.attempts, last_status_code = v.code,
        last_error = v.error, next_attempt_at = v.next_at, delivered_at = v.delivered_at, lease_until = null
      from v where callback_deliveries.id = v.id and callback_deliveries.lease_until = v.lease`.execute(db);
  }
}

/** The signing secrets of claimed deliveries' projects that had none when claimed (made now). */
async function missingSecrets(db: Db, rows: Claimed[]): Promise<Map<number, string>> {
  const map = new Map<number, string>();
  for (const r of rows)
    if (r.secret === null && !map.has(r.project_id))
      map.set(r.project_id, await callbackSecret(db, r.project_id));
  return map;
}

/** Starts this process's sender. */
export function startSender(
  db: Db,
  dialect: Dialect,
  config: Config['callbacks'],
  log: FastifyBaseLogger,
): Sender {
  const gaps = retryGaps(config.retryBaseMs, config.maxAttempts);
  let stopped = false;
  let ticking = false;
  let again = false;
  const inFlight = new Set<Promise<void>>();
  /** Claimed rows whose result is not written yet (waiting for a slot, or in a call). */
  const claimed = new Map<string, Row>();
  /** Results of finished calls not written yet. */
  const recording = new Set<Promise<void>>();
  // Connections kept alive per host, port and checked address (outbound.ts), closed at stop.
  const agents = config.keepAlive ? new CallAgents() : undefined;

  async function deliver(row: Row, secret: string) {
    const t = Math.floor(Date.now() / 1000);
    const result = await postChecked(
      row.url,
      row.body,
      {
        'content-type': 'application/json',
        'x-survey-delivery': row.id,
        'x-survey-signature': signature(secret, row.body, t),
      },
      { allowHosts: config.allowHosts, timeoutMs: CALL_TIMEOUT_MS, agents },
    );
    if (result.kind === 'refused')
      log.warn(
        { delivery: row.id, url: row.url, reason: result.reason },
        'callback refused by the address check',
      );
    const next = outcome(result, row.attempts, gaps, config.maxAttempts, Date.now());
    countDelivery(db, next.status);
    // The call's slot is free now; its result is written beside the next calls (the claim's lease
    // keeps the delivery from being taken again until then).
    const written = record(row, next)
      .catch((err) => log.warn({ err, delivery: row.id }, 'callback delivery could not be recorded'))
      .finally(() => recording.delete(written));
    recording.add(written);
  }

  // Results are written together: calls that finish in the same turn of the event loop share one
  // statement (recordResults; on SQLite one fsync instead of one per delivery, on PostgreSQL one
  // round trip instead of one per delivery).
  let results: { row: Row; next: ReturnType<typeof outcome>; done: (err?: unknown) => void }[] = [];
  function record(row: Row, next: ReturnType<typeof outcome>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      results.push({ row, next, done: (err) => (err ? reject(err) : resolve()) });
      if (results.length === 1) setImmediate(() => void flushResults());
    });
  }
  async function flushResults() {
    const batch = results;
    results = [];
    try {
      await recordResults(db, batch);
      for (const r of batch) r.done();
    } catch (err) {
      for (const r of batch) r.done(err);
    }
  }

  /** Claimed deliveries waiting for a call slot, with their secrets. */
  const waiting: { row: Row; secret: string }[] = [];
  /** Starts waiting calls while there are free slots. */
  function pump() {
    while (!stopped && inFlight.size < CONCURRENCY && waiting.length > 0) {
      const { row, secret } = waiting.shift()!;
      const p = deliver(row, secret)
        .catch((err) => log.warn({ err, delivery: row.id }, 'callback delivery failed'))
        .finally(() => {
          claimed.delete(row.id);
          inFlight.delete(p);
          pump();
          // Claims top the held deliveries up beside the calls, never in a call's path.
          if (!stopped) setImmediate(() => void tick());
        });
      inFlight.add(p);
    }
  }

  async function tick() {
    if (stopped) return;
    if (ticking) {
      again = true;
      return;
    }
    ticking = true;
    try {
      do {
        again = false;
        pump();
        const held = inFlight.size + waiting.length;
        const room = HELD - held;
        if (held > 0 && room < CLAIM_BATCH) break;
        const now = Date.now();
        const rows = await claim(db, dialect, now, now + config.leaseMs, room);
        const secrets = await missingSecrets(db, rows);
        for (const row of rows) {
          const { secret, ...delivery } = row;
          claimed.set(row.id, delivery);
          waiting.push({ row: delivery, secret: secret ?? secrets.get(row.project_id)! });
        }
        pump();
        if (rows.length === room) again = true;
      } while (again && !stopped);
    } catch (err) {
      if (!stopped) log.warn({ err }, 'callback sender could not read the outbox');
    } finally {
      ticking = false;
    }
  }

  const timer = setInterval(() => void tick(), config.pollMs);
  timer.unref();
  setImmediate(() => void tick());
  const sender: Sender = {
    wake: () => void tick(),
    stop: async (deadline = Number.POSITIVE_INFINITY) => {
      stopped = true;
      clearInterval(timer);
      senders.delete(db);
      while (ticking) await new Promise((r) => setTimeout(r, 5));
      // Claimed but not called: released below with the calls still out.
      waiting.length = 0;
      const settled = Promise.allSettled([...inFlight]);
      const left = deadline - Date.now();
      if (left === Number.POSITIVE_INFINITY) await settled;
      else {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([settled, new Promise((r) => (timer = setTimeout(r, Math.max(0, left))))]);
        clearTimeout(timer);
      }
      await Promise.allSettled([...recording]);
      // Only while the claim is still ours (the same lease), as a result would be written.
      for (const row of claimed.values())
        await db
          .updateTable('callback_deliveries')
          .set({ lease_until: null })
          .where('id', '=', row.id)
          .where('lease_until', '=', row.lease_until)
          .execute()
          .catch((err) => log.warn({ err, delivery: row.id }, 'callback claim could not be released'));
      claimed.clear();
      agents?.destroy();
    },
  };
  senders.set(db, sender);
  return sender;
}
