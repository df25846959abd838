import fs from 'node:fs';
import { sql, type Transaction } from 'kysely';
import { walFileOf, type Db } from '../db';
import type { Database } from '../db/schema';
import { saveAnswerRow, saveAnswersPg, type AnswerWrite } from '../repos/respondents';
import { countGroup } from '../ops/meters';

// Group commit for answers: SQLite's in one transaction, PostgreSQL's in one statement.
//
// SQLite. With synchronous=FULL (DESIGN.md 5) every commit waits for an fsync, and better-sqlite3
// blocks the process while it does. Answers that arrive together (the requests one turn of the event
// loop reads) are written in one transaction, each in its own savepoint, and each caller is answered
// only once that transaction is on disk, so an answered call still survives kill -9 and a power cut.
// A write that fails rolls back to its savepoint alone; a commit that fails fails every write of the
// group. Other writers are not affected: they wait for the connection as they wait for any transaction.
//
// The group's wait for the disk is taken off the event loop: its transaction commits with
// synchronous=NORMAL (the WAL is written to the file, not yet flushed), the WAL file is then flushed
// with fdatasync in libuv's thread pool, and the callers are answered when that flush is done: the
// flush synchronous=FULL makes at the commit, made on another thread. On this machine's disk an
// fsync is 0.3 ms and the commit on the thread went from 2.3–2.9 ms to 1.2–1.5 ms (median); on a disk
// or network volume whose fsync takes 5–20 ms, that wait no longer stops every other caller. Every
// other transaction keeps synchronous=FULL. The next group may be written while one is flushed: its
// own flush covers it, and its callers wait for that.
//
// A group takes answers until its writes have held the thread for GROUP_BUDGET_MS: better-sqlite3
// runs them without a turn of the event loop in between, so a group of 50 answers was one stretch of
// up to 42–56 ms (11–24 ms with the budget, docs/decisions/survey-answers.md). What it leaves waits
// for the next group, one turn of the event loop later.

type Write<T> = (trx: Transaction<Database>) => Promise<T>;
interface Job {
  write: Write<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** Most writes in one commit: bounds how long the first of them waits for the last. */
const MAX_GROUP = 64;
/** Most time a group's writes hold the event loop (a write begun is finished: one answer is ≈ 0.3 ms). */
export const GROUP_BUDGET_MS = 8;

/** Flushes a file's written data to disk on libuv's thread pool (fdatasync). */
async function flushToDisk(file: string): Promise<void> {
  const handle = await fs.promises.open(file, 'r').catch((err: NodeJS.ErrnoException) => {
    // No WAL file: SQLite removed it after checkpointing every frame into the database file, which
    // it syncs first (NORMAL syncs at checkpoints): nothing is left to flush.
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (!handle) return;
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

class GroupCommit {
  private queue: Job[] = [];
  private scheduled = false;
  private flushing = 0;
  private readonly wal: string | undefined;

  constructor(private readonly db: Db) {
    this.wal = walFileOf(db);
  }

  /** Whether an answer is queued, being written or waiting for the disk (the graceful stop waits for none). */
  busy = () => this.scheduled || this.queue.length > 0 || this.flushing > 0;

  run<T>(write: Write<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ write, resolve: resolve as (v: unknown) => void, reject });
      this.schedule();
    });
  }

  private schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    // After the poll phase: the requests that arrived with this one queue their writes first.
    setImmediate(() => void this.write());
  }

  private async write(): Promise<void> {
    const done: [Job, unknown][] = [];
    let group: Job[] = [];
    let committed = false;
    try {
      await this.db.connection().execute(async (conn) => {
        if (this.wal) await sql`pragma synchronous = normal`.execute(conn);
        try {
          await conn.transaction().execute(async (trx) => {
            // Taken once the connection is ours: whatever queued while waiting for it joins too.
            const alone = this.queue.length === 1;
            const started = performance.now();
            while (this.queue.length > 0 && group.length < MAX_GROUP) {
              if (group.length > 0 && performance.now() - started >= GROUP_BUDGET_MS) break;
              const job = this.queue.shift()!;
              group.push(job);
              if (alone) {
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
          committed = true;
        } finally {
          if (this.wal) await sql`pragma synchronous = full`.execute(conn);
        }
      });
    } catch (err) {
      // The transaction did not commit (a lone write's error lands here too): nothing was written.
      // A job already refused keeps its own error (a settled promise ignores a second reject).
      // When the transaction could not even begin, the queue is refused rather than retried forever.
      if (group.length === 0) group = this.queue.splice(0, MAX_GROUP);
      if (!committed) for (const job of group) job.reject(err);
    } finally {
      this.scheduled = false;
      if (this.queue.length > 0) this.schedule();
    }
    if (!committed) return;
    this.flushing++;
    try {
      if (this.wal) await flushToDisk(this.wal);
      for (const [job, value] of done) job.resolve(value);
      countGroup(this.db, group.length);
    } catch (err) {
      // Written but perhaps not on disk: the callers are told it failed (a page sent again is
      // recognised as stored and answered as it was).
      for (const [job] of done) job.reject(err);
    } finally {
      this.flushing--;
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

// PostgreSQL. Each answer is one statement already, but each statement sent costs a protocol round,
// the parse of its parameters, a commit (with durable settings, a wait for the WAL's flush) and on a
// busy server the wake-up of a backend. Answers that arrive while a group is being written queue for
// the next one: one statement over arrays (saveAnswersPg), at most MAX_GROUP answers, never two of one
// respondent (a page sent twice at once goes in another group, whose statement waits for the first's
// row lock and then finds the respondent moved). When a group's statement fails, its answers are
// written one by one, so that only the faulty one gets the error.

/**
 * Group statements written at the same time per database. Without a bound every turn of the event
 * loop sent its few answers as a group of their own (5–6 answers under 100 connections), which then
 * waited for one of the pool's 10 connections and, on the report's counter rows that every group
 * updates, for the group before it to commit: many small groups, each a commit to flush. With at most
 * MAX_WRITING in flight the answers that arrive meanwhile go as the next group, so groups grow with the
 * load (40–64 answers in the bench) and a commit is shared by more answers; under light load nothing
 * waits. Two rather than one, so that one slow statement (a checkpoint's I/O, a row lock held by a
 * completion's transaction) does not hold up every answer of the process (docs/decisions/survey-answers.md
 * has the measurements: 1, 2 and 3 were within the machine's noise of each other, 6 was worse).
 */
const MAX_WRITING = 2;

interface PgJob {
  write: AnswerWrite;
  resolve: (moved: boolean) => void;
  reject: (err: unknown) => void;
}

class PgGroups {
  private queue: PgJob[] = [];
  private scheduled = false;
  private writing = 0;

  constructor(private readonly db: Db) {}

  busy = () => this.scheduled || this.queue.length > 0 || this.writing > 0;

  run(write: AnswerWrite): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.queue.push({ write, resolve, reject });
      this.schedule();
    });
  }

  private schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.queue.length > 0 && this.writing < MAX_WRITING) {
        this.writing++;
        void this.flush(this.take()).finally(() => {
          this.writing--;
          // What queued while this group was written goes next, as one group.
          if (this.queue.length > 0) this.schedule();
        });
      }
    });
  }

  /** Up to MAX_GROUP jobs, one per respondent (the rest keep their place in the queue). */
  private take(): PgJob[] {
    const group: PgJob[] = [];
    const ids = new Set<number>();
    const rest: PgJob[] = [];
    for (const job of this.queue) {
      const id = job.write.respondent.id;
      if (group.length < MAX_GROUP && !ids.has(id)) {
        ids.add(id);
        group.push(job);
      } else rest.push(job);
    }
    this.queue = rest;
    return group;
  }

  private async flush(group: PgJob[]): Promise<void> {
    countGroup(this.db, group.length);
    if (group.length === 1) {
      const [job] = group;
      await saveAnswerRow(this.db, job.write).then(job.resolve, job.reject);
      return;
    }
    let moved: Set<number>;
    try {
      moved = await saveAnswersPg(
        this.db,
        group.map((j) => j.write),
      );
    } catch {
      // One faulty answer (a value the database refuses) must not fail the others: one by one.
      await Promise.all(group.map((job) => saveAnswerRow(this.db, job.write).then(job.resolve, job.reject)));
      return;
    }
    for (const job of group) job.resolve(moved.has(job.write.respondent.id));
  }
}

const pgGroups = new WeakMap<Db, PgGroups>();

/** Writes one answer on PostgreSQL, in one statement with the answers queued at the same moment. */
export function saveAnswerInGroup(db: Db, write: AnswerWrite): Promise<boolean> {
  let groups = pgGroups.get(db);
  if (!groups) pgGroups.set(db, (groups = new PgGroups(db)));
  return groups.run(write);
}

/** Resolves once every answer queued on this database has been written or refused (the graceful stop). */
export async function drainAnswerGroups(db: Db): Promise<void> {
  while (groups.get(db)?.busy() || pgGroups.get(db)?.busy()) await new Promise((r) => setTimeout(r, 5));
}
