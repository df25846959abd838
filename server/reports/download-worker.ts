import fs from 'node:fs';
import os from 'node:os';
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { openReadDatabase } from '../db';
import { writeDownload } from './download-job';
import { WINDOW, type FromThread, type ThreadData, type ToThread } from './download-threads';
import { DownloadAborted } from './workbook';
import { placeNamesGiven } from './places';
import type { Locales } from '../../src/i18n/i18n-types';

// A download thread (download-threads.ts): its own read-only way into the database, and the
// downloads the server hands it, each written by writeDownload into a stream that posts its bytes
// to the server's thread and waits for them to be taken.

/**
 * The thread's scheduling priority (a nice value, Linux). A download is background work: on a
 * machine with few cores the thread that writes a file at full speed takes a core the server's own
 * thread then waits for, and the respondents wait with it. At nice 10 the server's thread gets about
 * nine times the thread's share of a core they both want, and the thread still runs whenever a core
 * is free. On the quiet two-core bench machine (2026-11-29, respondents answering at 300 a second)
 * the downloads took no longer than at nice 5, and the answers' p99 beside them fell from 44-77 ms to
 * 27-38 ms on both databases (docs/benchmarks.md). On a machine busy with other work a download
 * waits longer for its share (at nice 5, a fresh thread at load 22 once sent a CSV's first bytes
 * after 27 s): the respondents come first.
 */
const NICE = 10;

/** Lowers this thread's priority alone: on Linux a nice value is per thread, set by its id. */
function yieldToServer() {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, NICE);
  } catch {
    // Not Linux, or not allowed: the thread runs at the server's priority, as before.
  }
}

yieldToServer();
const port = parentPort!;
const post = (m: FromThread, transfer?: ArrayBuffer[]) => port.postMessage(m, transfer);
const options = workerData as ThreadData;
for (const [locale, pairs] of Object.entries(options.placeNames)) placeNamesGiven(locale as Locales, pairs);
const { db } = openReadDatabase(options, (err) =>
  post({ type: 'warn', message: `download thread: database connection lost (${err.message})` }),
);
// From here on the server may end this thread (download-threads.ts, stop).
post({ type: 'ready' });

/** The bytes go to the server's thread; at most WINDOW of them not yet taken by the reader there. */
class ToServer extends Writable {
  private inFlight = 0;
  private waiting: (() => void) | null = null;

  constructor(private readonly id: number) {
    super({ highWaterMark: 64 * 1024 });
  }

  override _writev(chunks: { chunk: Buffer }[], done: (err?: Error | null) => void) {
    // One copy into a buffer of our own, whose memory is then handed over rather than copied again.
    let size = 0;
    for (const c of chunks) size += c.chunk.length;
    const data = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      data.set(c.chunk, at);
      at += c.chunk.length;
    }
    post({ type: 'chunk', id: this.id, data }, [data.buffer]);
    this.inFlight += size;
    if (this.inFlight <= WINDOW) done();
    else this.waiting = done;
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void) {
    this._writev([{ chunk }], done);
  }

  taken(bytes: number) {
    this.inFlight -= bytes;
    if (this.waiting && this.inFlight <= WINDOW) {
      const done = this.waiting;
      this.waiting = null;
      done();
    }
  }
}

const running = new Map<number, ToServer>();

async function run(id: number, job: Extract<ToThread, { type: 'start' }>['job']) {
  const out = new ToServer(id);
  running.set(id, out);
  try {
    await writeDownload(job, db, out);
    // Every byte posted before the end is said (the port keeps the order).
    if (!out.writableFinished)
      await new Promise<void>((resolve, reject) => {
        out.once('finish', resolve);
        out.once('close', () => reject(new DownloadAborted()));
        out.once('error', reject);
      });
    post({ type: 'end', id });
  } catch (err) {
    const aborted = err instanceof DownloadAborted || out.destroyed;
    out.destroy();
    post({
      type: 'error',
      id,
      aborted,
      message: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
  } finally {
    running.delete(id);
  }
}

port.on('message', (m: ToThread) => {
  if (m.type === 'start') void run(m.id, m.job);
  else if (m.type === 'ack') running.get(m.id)?.taken(m.bytes);
  else if (m.type === 'abort') running.get(m.id)?.destroy();
  else if (m.type === 'close') {
    for (const out of running.values()) out.destroy();
    void db.destroy().finally(() => process.exit(0));
  }
});
