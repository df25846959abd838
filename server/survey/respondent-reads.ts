import type { Db } from '../db';
import { respondentsByTokenHash } from '../repos/respondents';
import type { CachedRespondent } from './respondent-cache';

// The read an answer makes when its respondent is not in this process's cache (respondent-cache.ts):
// past the cache's size, after a restart, or behind a balancer that sent the previous page to another
// server. Read one by one, those reads were the answer path's largest cost once more respondents were
// in flight than the cache holds: on PostgreSQL each was its own round trip on the pool, an unnamed
// statement parsed and planned every time, and waking its backend: with 50 000 in flight, 28 % of the
// answer run was writev to PostgreSQL's socket under these reads, against 7 % under the grouped
// writes, and 18–55 % of bare was all the answers reached (docs/decisions/survey-answers.md). Here
// the reads that arrive together go as one indexed statement (respondentsByTokenHash), like the
// writes' group commit (group-commit.ts):
//
// - gathered over one turn of the event loop (a setImmediate, after the poll phase has read every
//   request that was ready), at most MAX_BATCH hashes a statement;
// - at most MAX_READING statements at a time per database, so that under load the next batch grows
//   while those run instead of queueing small ones for the pool's connections;
// - the same hash twice in a batch is read once (a page sent twice at once).
//
// A row read here is as fresh as one read alone: it is read after the request arrived, and every
// write is conditional on the respondent's updated_at and the project being open anyway.

/** Most hashes in one statement (PostgreSQL takes the array as one parameter). */
const MAX_BATCH = 256;
/** Batches read at the same time per database (the pool has 10 connections; the writes take up to 2). */
const MAX_READING = 4;

interface Waiter {
  resolve: (row: CachedRespondent | undefined) => void;
  reject: (err: unknown) => void;
}

class ReadBatches {
  private queue = new Map<string, Waiter[]>();
  private scheduled = false;
  private reading = 0;

  constructor(private readonly db: Db) {}

  read(hash: string): Promise<CachedRespondent | undefined> {
    return new Promise((resolve, reject) => {
      const waiting = this.queue.get(hash);
      if (waiting) waiting.push({ resolve, reject });
      else this.queue.set(hash, [{ resolve, reject }]);
      this.schedule();
    });
  }

  private schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.queue.size > 0 && this.reading < MAX_READING) void this.flush(this.take());
    });
  }

  private take(): Map<string, Waiter[]> {
    const batch = new Map<string, Waiter[]>();
    for (const [hash, waiters] of this.queue) {
      if (batch.size >= MAX_BATCH) break;
      batch.set(hash, waiters);
      this.queue.delete(hash);
    }
    return batch;
  }

  private async flush(batch: Map<string, Waiter[]>): Promise<void> {
    this.reading++;
    try {
      const rows = await respondentsByTokenHash(this.db, [...batch.keys()]);
      const byHash = new Map(rows.map((r) => [r.token_hash, r]));
      for (const [hash, waiters] of batch) for (const w of waiters) w.resolve(byHash.get(hash));
    } catch (err) {
      for (const waiters of batch.values()) for (const w of waiters) w.reject(err);
    } finally {
      this.reading--;
      // What queued while this batch was read goes next, as one batch.
      if (this.queue.size > 0) this.schedule();
    }
  }
}

const batches = new WeakMap<Db, ReadBatches>();

/** The respondent with this token hash and their project's status, read with the reads queued now. */
export function readRespondent(db: Db, tokenHash: string): Promise<CachedRespondent | undefined> {
  let b = batches.get(db);
  if (!b) batches.set(db, (b = new ReadBatches(db)));
  return b.read(tokenHash);
}
