import { sql, type Transaction } from 'kysely';
import type { Db } from '../db';
import type { Database } from '../db/schema';

// Group commit for SQLite's answers. With synchronous=FULL (DESIGN.md 5) every commit waits for
// an fsync, and better-sqlite3 blocks the process while it does: under load that wait was half of
// an answer's time. Answers that arrive together (the requests one turn of the event loop reads)
// are written in one transaction, each in its own savepoint, and each caller is answered only once
// that transaction has committed, so an answered call still survives kill -9. A write that fails
// rolls back to its savepoint alone; a commit that fails fails every write of the group.
// Other writers are not affected: they wait for the connection as they wait for any transaction.

type Write<T> = (trx: Transaction<Database>) => Promise<T>;
interface Job {
  write: Write<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** Most writes in one commit: bounds how long the first of them waits for the last. */
const MAX_GROUP = 64;

class GroupCommit {
  private queue: Job[] = [];
  private scheduled = false;

  constructor(private readonly db: Db) {}

  run<T>(write: Write<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ write, resolve: resolve as (v: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // After the poll phase: the requests that arrived with this one queue their writes first.
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const done: [Job, unknown][] = [];
    let group: Job[] = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        // Taken once the connection is ours: whatever queued while waiting for it joins too.
        group = this.queue.splice(0, MAX_GROUP);
        for (const job of group) {
          if (group.length === 1) {
            done.push([job, await job.write(trx)]);
            continue;
          }
          await sql`savepoint answer`.execute(trx);
          try {
            const value = await job.write(trx);
            await sql`release answer`.execute(trx);
            done.push([job, value]);
          } catch (err) {
            await sql`rollback to answer`.execute(trx);
            await sql`release answer`.execute(trx);
            job.reject(err);
          }
        }
      });
      for (const [job, value] of done) job.resolve(value);
    } catch (err) {
      // The transaction did not commit (a lone write's error lands here too): nothing was written.
      // A job already refused keeps its own error (a settled promise ignores a second reject).
      // When the transaction could not even begin, the queue is refused rather than retried forever.
      if (group.length === 0) group = this.queue.splice(0, MAX_GROUP);
      for (const job of group) job.reject(err);
    } finally {
      this.scheduled = false;
      if (this.queue.length > 0) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    }
  }
}

const groups = new WeakMap<Db, GroupCommit>();

/** Runs `write` in a transaction shared with the writes queued at the same moment (SQLite only). */
export function writeInGroup<T>(db: Db, write: Write<T>): Promise<T> {
  let group = groups.get(db);
  if (!group) groups.set(db, (group = new GroupCommit(db)));
  return group.run(write);
}
