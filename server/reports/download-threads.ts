import { PassThrough, Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { Db } from '../db';
import { writeDownload, type DownloadJob } from './download-job';
import { DownloadAborted } from './workbook';
import { placeNames } from './places';
import type { Locales } from '../../src/i18n/i18n-types';

// Where the downloads run (docs/decisions/reports.md, "No stall in any download"). Writing the XLSX
// of 100 000 respondents held the event loop for up to a second at a time (ExcelJS's rows, the zip,
// better-sqlite3's synchronous reads, the collections heap.ts asks for), and every other caller of
// the server waited meanwhile. So a download runs in a worker thread with a database connection of
// its own (server/db openReadDatabase: SQLite read-only on the same file, or a small PostgreSQL
// pool), and the main thread only passes its bytes on. Threads are started when a download needs
// one, up to `threadCount`, each running any number of downloads, and end after IDLE_MS without one.
//
// The bytes keep the reader's pace end to end: the thread posts each chunk (transferred, not
// copied again) and counts it as in flight until this side acknowledges it; past WINDOW in flight
// its stream stops taking writes, so the writers' own backpressure (workbook.ts `drained`) waits
// exactly as it did for a socket. This side acknowledges a chunk once its reader has room for more.

/**
 * Bytes a thread may have sent that the reader has not taken yet. It also bounds the server's work
 * in one turn: the chunks that wait for the server's thread are all handled in the turn that reads
 * them, so 256 KB rather than 1 MB (the thread's writes are 64 KB; four keep it busy).
 */
export const WINDOW = 256 * 1024;
/**
 * A thread without a download for this long ends (its connection with it). Starting one takes about
 * a second (its modules); a researcher who takes the XLSX and then the CSV should not wait twice.
 */
const IDLE_MS = 5 * 60_000;
/** A thread's heap beyond this ends the thread (and its downloads), never the server. */
const HEAP_LIMIT_MB = 256;
/**
 * The thread's young generation. V8's default reserves up to ≈ 100 MB of it that a download's
 * short-lived rows never need: measured at 20 000 respondents, a thread's whole growth of the process
 * was ≈ 75 MB with the default or 32 MB, ≈ 50 MB with 4 MB, at no cost in time we could see (the
 * collections it makes more often run in the thread, not on the server's loop).
 */
const YOUNG_MB = 4;

export type ToThread =
  | { type: 'start'; id: number; job: DownloadJob }
  | { type: 'ack'; id: number; bytes: number }
  | { type: 'abort'; id: number }
  | { type: 'close' };
export type FromThread =
  | { type: 'chunk'; id: number; data: Uint8Array }
  | { type: 'end'; id: number }
  | { type: 'error'; id: number; aborted: boolean; message: string }
  | { type: 'warn'; message: string }
  /** The thread has loaded its modules (the SQLite addon among them) and opened its connection. */
  | { type: 'ready' };

export interface ThreadOptions {
  databaseUrl: string | null;
  dataDir: string;
}

/** What a thread starts with: where the database is, and the place names the files show. */
export interface ThreadData extends ThreadOptions {
  placeNames: Record<Locales, [string, string][]>;
}

/** A download's bytes as they come. */
export interface Download extends Readable {
  /** Settles with the first bytes (or the end): until then nothing has been sent, and a failure is a clean 500. */
  readonly ready: Promise<void>;
  /** Settles when the download is over: written whole, failed, or cancelled (DownloadAborted). */
  readonly done: Promise<void>;
}

interface Thread {
  worker: Worker;
  downloads: Map<number, ThreadDownload>;
  idle: NodeJS.Timeout | null;
  /** Settles once the thread has said it is ready, or has exited. */
  started: Promise<void>;
  /** The thread has said it is ready (its modules loaded, its connection open). */
  ready: boolean;
  exited: Promise<void>;
}

/** Settles with the first of its calls; later ones are ignored. */
function settleOnce() {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  // Whoever does not wait for it must not make an unhandled rejection.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

class ThreadDownload extends Readable implements Download {
  private first = settleOnce();
  private over = settleOnce();
  readonly ready = this.first.promise;
  readonly done = this.over.promise;
  /** Bytes received that the reader has not asked to be followed by more. */
  private owed = 0;
  private ended = false;

  constructor(
    readonly id: number,
    private readonly send: (m: ToThread) => void,
    private readonly forget: () => void,
  ) {
    // Chunks come from the thread already sized; the window, not this buffer, bounds what waits.
    super({ highWaterMark: 64 * 1024 });
  }

  chunk(data: Uint8Array) {
    this.first.resolve();
    if (this.destroyed) return;
    const more = this.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    if (more) this.send({ type: 'ack', id: this.id, bytes: data.byteLength });
    else this.owed += data.byteLength;
  }

  complete() {
    this.ended = true;
    this.forget();
    this.first.resolve();
    this.over.resolve();
    this.push(null);
  }

  fail(err: Error) {
    this.ended = true;
    this.forget();
    this.first.reject(err);
    this.over.reject(err);
    this.destroy(err);
  }

  override _read() {
    if (this.owed === 0) return;
    this.send({ type: 'ack', id: this.id, bytes: this.owed });
    this.owed = 0;
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void) {
    if (!this.ended) {
      // The reader went away (or the server closes): the thread stops reading the database.
      this.ended = true;
      this.forget();
      this.send({ type: 'abort', id: this.id });
      const why = err ?? new DownloadAborted();
      this.first.reject(why);
      this.over.reject(why);
    }
    cb(err);
  }
}

export class DownloadThreads {
  private readonly threads = new Set<Thread>();
  private nextId = 1;
  private closing = false;
  /** JSON texts made in a thread so far (the tests look). */
  jsonInThreads = 0;
  /**
   * The place names are made here, at start-up, and handed to each thread: built there, they would
   * load the whole cities data set into every thread (≈ 150 MB; server/data/cities.ts).
   */
  private readonly data: ThreadData;

  /**
   * `threads`: at most this many worker threads; 0 runs every download on the main thread, on the
   * server's own connection (the way it was before; kept for the bench's before/after).
   */
  constructor(
    private readonly db: Db,
    options: ThreadOptions,
    private readonly threadCount: number,
    private readonly warn: (msg: string) => void = (m) => console.warn(m),
  ) {
    this.data = { ...options, placeNames: { ru: placeNames('ru'), en: placeNames('en') } };
  }

  /** Starts writing the file `job` describes. */
  start(job: DownloadJob): Download {
    if (this.closing) throw new Error('the server is closing');
    if (this.threadCount === 0) return this.onMainThread(job);
    return this.startIn(this.pick(), job);
  }

  /**
   * The JSON text a job writes (the /report page's report, a Compare table), made in a download
   * thread: at 100 000 respondents SQLite's synchronous reads took 100–600 ms of the server's loop,
   * and every caller waited meanwhile. With no thread ready yet (one takes about a second to start),
   * a small project's JSON is made here, as before, rather than keep the reader waiting, and a
   * thread is started for the next call; a large one's (`large`, asked only then) waits for it.
   */
  async json(job: DownloadJob, large: () => Promise<boolean> = async () => false): Promise<Buffer> {
    if (this.closing) throw new Error('the server is closing');
    let thread = this.leastBusy(true);
    if (!thread && this.threadCount > 0 && (await large())) thread = this.pick();
    if (thread) this.jsonInThreads++;
    else this.warm();
    const text = thread ? this.startIn(thread, job) : this.onMainThread(job);
    const chunks = await text.toArray();
    await text.done;
    return Buffer.concat(chunks);
  }

  private startIn(thread: Thread, job: DownloadJob): Download {
    const id = this.nextId++;
    const post = (m: ToThread) => {
      if (thread.downloads.has(id) || m.type === 'abort') thread.worker.postMessage(m);
    };
    const download = new ThreadDownload(id, post, () => this.finished(thread, id));
    thread.downloads.set(id, download);
    if (thread.idle) clearTimeout(thread.idle);
    thread.idle = null;
    thread.worker.ref();
    thread.worker.postMessage({ type: 'start', id, job } satisfies ToThread);
    return download;
  }

  /**
   * Starts a thread ahead of a download, when none runs: the report page asks, so that its
   * downloads do not wait for a thread's start (about a second; the thread idles out as any).
   */
  warm(): void {
    if (this.closing || this.threadCount === 0 || this.threads.size > 0) return;
    this.idleFrom(this.spawn());
  }

  /** Ends every thread (their downloads fail); for the server's close. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.threads].map((t) => this.stop(t)));
  }

  /** Threads running now (tests and the bench look). */
  get running(): number {
    return this.threads.size;
  }

  private onMainThread(job: DownloadJob): Download {
    const out = new PassThrough();
    const done = writeDownload(job, this.db, out).catch((err: unknown) => {
      const e = err instanceof Error ? err : new Error(String(err));
      out.destroy(e);
      throw e;
    });
    done.catch(() => {});
    return Object.assign(out, { ready: Promise.resolve(), done });
  }

  /** The thread with the fewest downloads (of those ready, with `ready`), if any. */
  private leastBusy(ready = false): Thread | null {
    let best: Thread | null = null;
    for (const t of this.threads)
      if ((!ready || t.ready) && (!best || t.downloads.size < best.downloads.size)) best = t;
    return best;
  }

  /** The thread with the fewest downloads, or a new one while some are busy and there is room. */
  private pick(): Thread {
    const best = this.leastBusy();
    if (best && (best.downloads.size === 0 || this.threads.size >= this.threadCount)) return best;
    return this.spawn();
  }

  private spawn(): Thread {
    const worker = new Worker(new URL('./download-thread.mjs', import.meta.url), {
      workerData: this.data,
      resourceLimits: { maxOldGenerationSizeMb: HEAP_LIMIT_MB, maxYoungGenerationSizeMb: YOUNG_MB },
      // The thread's console goes to the server's own output.
      stdout: false,
      stderr: false,
    });
    let exited!: () => void;
    let started!: () => void;
    const thread: Thread = {
      worker,
      downloads: new Map(),
      idle: null,
      started: new Promise<void>((r) => (started = r)),
      ready: false,
      exited: new Promise<void>((r) => (exited = r)),
    };
    this.threads.add(thread);
    worker.on('message', (m: FromThread) => {
      if (m.type === 'ready') {
        thread.ready = true;
        return started();
      }
      if (m.type === 'warn') return this.warn(m.message);
      const d = thread.downloads.get(m.id);
      if (!d) return;
      if (m.type === 'chunk') d.chunk(m.data);
      else if (m.type === 'end') d.complete();
      else d.fail(m.aborted ? new DownloadAborted() : new Error(`download thread: ${m.message}`));
    });
    const gone = (err: Error) => {
      this.threads.delete(thread);
      if (thread.idle) clearTimeout(thread.idle);
      for (const d of [...thread.downloads.values()]) d.fail(err);
    };
    worker.on('error', (err) => gone(err));
    worker.on('exit', (code) => {
      gone(new Error(`download thread exited (${code})`));
      started();
      exited();
    });
    return thread;
  }

  private finished(thread: Thread, id: number) {
    thread.downloads.delete(id);
    if (thread.downloads.size > 0 || !this.threads.has(thread)) return;
    this.idleFrom(thread);
  }

  private idleFrom(thread: Thread) {
    thread.worker.unref();
    thread.idle = setTimeout(() => void this.stop(thread), IDLE_MS);
    thread.idle.unref();
  }

  /**
   * Asks the thread to close its connection and end; ends it outright 2 s later. Never before it is
   * ready: a thread ended while it loads the SQLite addon takes the whole process down with it
   * (better-sqlite3's module registration meets a terminating environment: "FATAL ERROR:
   * Error::New napi_get_last_error_info"), which a slow start on a loaded machine made likely.
   */
  private async stop(thread: Thread): Promise<void> {
    if (thread.idle) clearTimeout(thread.idle);
    this.threads.delete(thread);
    await thread.started;
    thread.worker.postMessage({ type: 'close' } satisfies ToThread);
    const timer = setTimeout(() => void thread.worker.terminate(), 2000);
    await thread.exited;
    clearTimeout(timer);
  }
}
