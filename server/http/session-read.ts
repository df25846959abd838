import type { FastifyReply, FastifyRequest, RouteShorthandOptionsWithHandler } from 'fastify';
import { sql, type SelectQueryBuilder } from 'kysely';

// Reads whose session is checked by their own statement (docs/decisions/reads.md, "The epoch in
// the list's own statement"). A call whose access token is in the session cache would otherwise
// read the sign-in epoch in a statement of its own before the list's, and on PostgreSQL every
// statement is a round trip that costs more than the list itself. For the reads wrapped here the
// request context trusts the cached session provisionally (server/http/context.ts) and the list's
// statement selects the epoch as one more column, in the same snapshot as its rows: when it is the
// epoch the session was verified under, nothing that could end or change the session had committed
// when the statement began, which was after the call arrived, so the rows may go. Otherwise the
// rows are dropped, the session verified afresh and the handler run again. A handler that read no
// row carrying the epoch (an empty page, a 403 decided before any statement) reads it alone.
// Only for reads: a handler may run twice.

/** What the request context keeps when it trusts a cached session provisionally. */
export interface ProvisionalSession {
  /** The sign-in epoch the cached session was verified under. */
  epoch: number;
  /** Reads the current epoch in a statement of its own. */
  readEpoch(): Promise<number>;
  /** Drops the cached session and verifies the call's tokens from the database, as without cache. */
  verify(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    provisionalSession: ProvisionalSession | null;
  }
  interface FastifyContextConfig {
    /** The handler checks a provisional session's epoch in its own statements (sessionRead). */
    sessionInStatement?: boolean;
  }
}

const EPOCH = 'auth_epoch__';
const epochColumn = sql<number>`(select n from auth_epoch where id = 1)`.as(EPOCH);

/** The epoch as read by a call's statements; the handler adds it with `on` and reports rows with `saw`. */
export class EpochProbe {
  /** The epoch every statement that returned a row saw, null if none did; NaN when they differed. */
  epoch: number | null = null;

  /** Whether statements get the epoch column (a statement built once per value must know it). */
  constructor(readonly active: boolean) {}

  /** A probe that adds nothing: the session was verified from the database, or there is none. */
  static readonly off = new EpochProbe(false);

  /** The statement with the epoch as one more column, when this call's session is provisional. */
  on<Q extends SelectQueryBuilder<never, never, object>>(query: Q): Q {
    return this.active ? (query.select(epochColumn as never) as unknown as Q) : query;
  }

  /** Notes the epoch a statement made by `on` saw (on its first row: without rows, none). */
  saw(rows: readonly object[]): void {
    if (!this.active || rows.length === 0) return;
    const n = Number((rows[0] as Record<string, unknown>)[EPOCH]);
    this.epoch = this.epoch === null || this.epoch === n ? n : NaN;
  }
}

type Handler<T> = (req: FastifyRequest, reply: FastifyReply, probe: EpochProbe) => Promise<T>;

/** A read's route options: its handler runs with a probe, and again after a fresh verification
 * when the epoch its statements saw is not the one its provisional session was verified under. */
export function sessionRead<T>(handler: Handler<T>): RouteShorthandOptionsWithHandler {
  return {
    config: { sessionInStatement: true },
    handler: async (req, reply) => {
      const pending = req.provisionalSession;
      if (!pending) return handler(req, reply, EpochProbe.off);
      const probe = new EpochProbe(true);
      let outcome: { ok: true; value: T } | { ok: false; error: unknown };
      try {
        outcome = { ok: true, value: await handler(req, reply, probe) };
      } catch (error) {
        outcome = { ok: false, error };
      }
      const epoch = probe.epoch ?? (await pending.readEpoch());
      if (epoch === pending.epoch) {
        if (outcome.ok) return outcome.value;
        throw outcome.error;
      }
      req.provisionalSession = null;
      req.auth = null;
      await pending.verify();
      return handler(req, reply, EpochProbe.off);
    },
  };
}
