import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { buildApp } from '../../server/app';
import { configFromEnv } from '../../server/config';
import { loadContent } from '../../server/repos/content';
import { buildReport, readiness } from '../../server/reports/report';
import type * as Workbook from '../../server/reports/workbook';
import { translator } from '../../server/http/i18n';
import { parse } from '../../server/http/validate';
import { ReportQuery } from '../../src/domain/reports';
import { DownloadThreads } from '../../server/reports/download-threads';

// One download of the report file in a process of its own, started by report-download.bench.ts, so
// that what it measures belongs to the download alone: the process's memory grows from the same
// start on each database (a process that has just seeded 100 000 respondents has a heap of its own
// to reuse, which hid the growth before), and the event loop's longest stall is the time the server
// would answer nothing else. Environment: DATA_DIR or DATABASE_URL, PID, FORMAT (xlsx|csv|sav),
// READER_MB_S for a reader slower than the writer (unset: a reader that takes each chunk on the next
// turn of the event loop, as a socket with room does), LIVE=1 (with --expose-gc) to collect garbage
// before each sample, so that the growth is what the download holds rather than what the collector
// has not reclaimed yet, and WORKBOOK to measure another copy of server/reports/workbook.ts (the
// code before a change, for a before/after in the same run), THREADS=1 to write it as the server now
// does, in a download thread (server/reports/download-threads.ts: the thread, its own connection and
// its heap count in the process's RSS like the rest). Prints one line of JSON.

export interface DownloadMeasure {
  ms: number;
  bytes: number;
  rssBefore: number;
  rssPeak: number;
  heapPeak: number;
  arrayBuffersPeak: number;
  longestStallMs: number;
  /** With LIVE: the largest growth of heap + buffers right after a full collection. */
  liveGrowth?: number;
}

async function main() {
  const { writeCsv, writeXlsx } = (await import(
    `../../server/reports/${process.env.WORKBOOK ?? 'workbook'}.ts`
  )) as typeof Workbook;
  const gc = process.env.LIVE ? (globalThis.gc ?? null) : null;
  if (process.env.LIVE && !gc) throw new Error('LIVE needs node --expose-gc');
  const config = configFromEnv({});
  config.dataDir = process.env.DATA_DIR ?? config.dataDir;
  config.databaseUrl = process.env.DATABASE_URL ?? null;
  config.staticDir = null;
  const app = await buildApp(config, { logger: false });
  const db = app.db;
  const pid = Number(process.env.PID);
  const project = (await db.selectFrom('projects').selectAll().where('id', '=', pid).executeTakeFirst())!;
  const ready = await readiness(db, project);
  const { content } = await loadContent(db, pid);
  const report = await buildReport(db, project, {
    filters: {},
    openPage: 1,
    openPageSize: 1,
    ready,
    content,
  });
  const t = translator('en');
  const { writeSav } = await import('../../server/reports/sav/survey');

  const liveNow = () => {
    gc!();
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const live0 = gc ? liveNow() : 0;
  let liveGrowth = 0;
  let lastLive = 0;

  const m0 = process.memoryUsage();
  const peak = { rss: m0.rss, heap: m0.heapUsed, ab: m0.arrayBuffers };
  const sample = () => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heap = Math.max(peak.heap, m.heapUsed);
    peak.ab = Math.max(peak.ab, m.arrayBuffers);
    if (gc && performance.now() - lastLive > 500) {
      liveGrowth = Math.max(liveGrowth, liveNow() - live0);
      lastLive = performance.now();
    }
  };
  // The reader: a fast one takes each chunk on the next turn; a slow one at READER_MB_S.
  const rate = Number(process.env.READER_MB_S ?? 0) * 1024 * 1024;
  let bytes = 0;
  let start = performance.now();
  const reader = new Writable({
    write(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      // Sampled here too: a writer that never lets the ticker run is seen when its bytes come out.
      sample();
      // A link of `rate` bytes a second: each chunk is taken when the bytes so far would have passed.
      const due = rate > 0 ? start + (bytes / rate) * 1000 - performance.now() : 0;
      if (due >= 1) setTimeout(done, due);
      else setImmediate(done);
    },
  });

  // A 10 ms ticker: the longest gap between its ticks is the longest time nothing else could run.
  let last = performance.now();
  let stall = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    sample();
    last = performance.now();
  }, 10);
  start = performance.now();
  const format = process.env.FORMAT ?? 'xlsx';
  if (process.env.THREADS === '1') {
    const threads = new DownloadThreads(db, { databaseUrl: config.databaseUrl, dataDir: config.dataDir }, 1);
    const query = parse(ReportQuery, { pid: String(pid), type: 'stats', format });
    const file = threads.start({ kind: 'report', project, ready, content, query, locale: 'en' });
    await pipeline(file, reader);
    await threads.close();
  } else {
    const write = format === 'csv' ? writeCsv : format === 'sav' ? writeSav : writeXlsx;
    await write(reader, db, report, content, t);
  }
  const ms = performance.now() - start;
  clearInterval(ticker);
  stall = Math.max(stall, performance.now() - last);
  sample();
  const result: DownloadMeasure = {
    ms: Math.round(ms),
    bytes,
    rssBefore: m0.rss,
    rssPeak: peak.rss,
    heapPeak: peak.heap,
    arrayBuffersPeak: peak.ab,
    longestStallMs: Math.round(stall),
    ...(gc ? { liveGrowth } : {}),
  };
  console.log(JSON.stringify(result));
  await app.close();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
