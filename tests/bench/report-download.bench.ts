import { spawn } from 'node:child_process';
import path from 'node:path';
import type { TestServer } from '../server/helpers';
import type { Bench, BenchResult } from './run';
import { onEachDatabase } from './databases';
import { seed } from './report-server.bench';
import type { DownloadMeasure } from './report-download';

// GET /project/stats/file type=stats at 100 000 respondents × 20 questions (DESIGN.md 7: the XLSX
// streamed in bounded memory), on SQLite and, when BENCH_DATABASE_URL (or TEST_DATABASE_URL) names a
// PostgreSQL server, on PostgreSQL too: the workbook to a reader as fast as a socket with room, the
// memory the download holds (after full collections, so not what the collector merely has not
// reclaimed yet), the workbook to a reader slower than the writer (1 MB/s, a slow link), and the CSV.
// Each download runs in a fresh process (report-download.ts) so that its memory is measured from the
// same start on both databases; the longest event-loop stall is how long the server would answer
// nothing else.

export const title = 'Reports: the downloads of 100 000 respondents (streamed XLSX and CSV)';

const RESPONDENTS = Number(process.env.BENCH_RESPONDENTS ?? 100_000);
const SLOW_READER_MB_S = 1;
const MB = 1024 * 1024;

/** One download in a fresh process (report-download.ts); LIVE runs collect garbage before sampling. */
function download(server: TestServer, pid: number, env: Record<string, string>): Promise<DownloadMeasure> {
  const child = path.join(path.dirname(new URL(import.meta.url).pathname), 'report-download.ts');
  const where = server.config.databaseUrl
    ? { DATABASE_URL: server.config.databaseUrl }
    : { DATA_DIR: server.config.dataDir };
  const flags = env.LIVE ? ['--expose-gc'] : [];
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...flags, '--import', 'tsx', child], {
      env: { ...process.env, ...where, PID: String(pid), ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    p.on('error', reject);
    p.on('close', (code) => {
      if (code !== 0) return reject(new Error(`report-download.ts exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop()!) as DownloadMeasure);
    });
  });
}

const mb = (n: number) => Math.round(n / MB);
const kb = (n: number) => Math.round(n / 1024);

async function measureCode(
  label: string,
  server: TestServer,
  pid: number,
  workbook: string | undefined,
): Promise<BenchResult[]> {
  const env = (e: Record<string, string>) => (workbook ? { ...e, WORKBOOK: workbook } : e);
  const run = async (what: string, e: Record<string, string>) => {
    const m = await download(server, pid, env(e));
    console.log(`  ${label}, ${what}: ${JSON.stringify(m)}`);
    return m;
  };
  const n = RESPONDENTS.toLocaleString('en');
  const slow = `reader at ${SLOW_READER_MB_S} MB/s`;
  const fast = await run('XLSX, fast reader', { FORMAT: 'xlsx' });
  const fastLive = await run('XLSX, fast reader, held', { FORMAT: 'xlsx', LIVE: '1' });
  const slowLive = await run(`XLSX, ${slow}, held`, {
    FORMAT: 'xlsx',
    READER_MB_S: String(SLOW_READER_MB_S),
    LIVE: '1',
  });
  const growth = (m: DownloadMeasure) =>
    `RSS ${mb(m.rssBefore)} → ${mb(m.rssPeak)} MB; peaks: heap ${mb(m.heapPeak)} MB, buffers ${mb(m.arrayBuffersPeak)} MB`;
  const csv = await run('CSV, fast reader', { FORMAT: 'csv' });
  // As the server writes them now: in a download thread (issue 34), whose memory is the process's too.
  const threaded = [];
  if (!workbook)
    for (const [format, e] of [
      ['XLSX', { FORMAT: 'xlsx' }],
      ['CSV', { FORMAT: 'csv' }],
      ['SAV', { FORMAT: 'sav' }],
      [`XLSX to a ${slow}`, { FORMAT: 'xlsx', READER_MB_S: String(SLOW_READER_MB_S) }],
    ] as const) {
      const m = await run(`${format}, in a download thread`, { ...e, THREADS: '1' });
      threaded.push({
        name: `${label}: ${format} in a download thread, peak memory growth of the process`,
        value: kb(m.rssPeak - m.rssBefore),
        unit: 'KB' as const,
        budget: 100 * 1024,
        note: `${(m.bytes / MB).toFixed(1)} MB in ${m.ms} ms; ${growth(m)} (main thread's heap)`,
      });
    }
  return [
    {
      name: `${label}: XLSX of ${n} respondents (fast reader)`,
      value: fast.ms,
      unit: 'ms',
      note: `${(fast.bytes / MB).toFixed(1)} MB written`,
    },
    {
      name: `${label}: its peak memory growth`,
      value: kb(fast.rssPeak - fast.rssBefore),
      unit: 'KB',
      note: growth(fast),
    },
    {
      name: `${label}: memory it holds (heap + buffers after a full collection, largest growth)`,
      value: kb(fastLive.liveGrowth ?? 0),
      unit: 'KB',
      note: 'sampled every 0.5 s in a second run',
    },
    {
      name: `${label}: its longest event-loop stall`,
      value: fast.longestStallMs,
      unit: 'ms',
      note: 'the longest time the server answered nothing else',
    },
    {
      name: `${label}: XLSX to a ${slow}`,
      value: slowLive.ms,
      unit: 'ms',
      note: `held at most ${mb(slowLive.liveGrowth ?? 0)} MB; ${growth(slowLive)}`,
    },
    {
      name: `${label}: CSV of ${n} respondents (fast reader)`,
      value: csv.ms,
      unit: 'ms',
      note: `${(csv.bytes / MB).toFixed(1)} MB written; peak growth ${mb(csv.rssPeak - csv.rssBefore)} MB; longest stall ${csv.longestStallMs} ms`,
    },
    ...threaded,
  ];
}

async function measure(label: string, server: TestServer): Promise<BenchResult[]> {
  const started = performance.now();
  const { pid, rows } = await seed(server);
  console.log(
    `  ${label}: seeded ${rows} answer rows in ${Math.round((performance.now() - started) / 1000)} s`,
  );
  // BENCH_WORKBOOK_BEFORE names a copy of the old server/reports/workbook.ts beside it (without
  // .ts): the same downloads with it, first, for a before/after in one run on the same data.
  const before = process.env.BENCH_WORKBOOK_BEFORE;
  if (!before) return measureCode(label, server, pid, undefined);
  return [
    ...(await measureCode(`${label}, before`, server, pid, before)),
    ...(await measureCode(`${label}, after`, server, pid, undefined)),
  ];
}

const bench: Bench = () => onEachDatabase(measure);
export default bench;
