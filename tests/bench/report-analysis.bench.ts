import { spawn } from 'node:child_process';
import path from 'node:path';
import type { TestServer } from '../server/helpers';
import { median, type Bench, type BenchResult } from './run';
import { onEachDatabase } from './databases';
import { seed } from './report-server.bench';
import type { DownloadMeasure } from './report-download';
import { dropOffCounts } from '../../server/reports/dropoff';
import { SAMPLE_PLACES } from '../../server/reports/sample';
import type { ReportFilters } from '../../src/domain/reports';

// Issue 23 at 100 000 respondents × 20 questions, on SQLite and (BENCH_DATABASE_URL or
// TEST_DATABASE_URL) PostgreSQL: what the drop-off funnel, the timing and the timeline add to the
// JSON report (their three GROUP BYs, budget 100 ms), and every download (XLSX, CSV, SAV) to a fast
// reader, each in a fresh process (report-download.ts): its time and how much it grows the process
// (DESIGN.md 7: at most 100 MB).

export const title = 'Reports: drop-off queries and the downloads of 100 000 respondents (XLSX, CSV, SAV)';

const MB = 1024 * 1024;
const moscow = SAMPLE_PLACES[0].city;
const kazan = SAMPLE_PLACES.find((p) => p.region === 'Республика Татарстан')!.city;

function download(server: TestServer, pid: number, format: string): Promise<DownloadMeasure> {
  const child = path.join(path.dirname(new URL(import.meta.url).pathname), 'report-download.ts');
  const where = server.config.databaseUrl
    ? { DATABASE_URL: server.config.databaseUrl }
    : { DATA_DIR: server.config.dataDir };
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', child], {
      env: { ...process.env, ...where, PID: String(pid), FORMAT: format },
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

async function measure(label: string, server: TestServer): Promise<BenchResult[]> {
  const started = performance.now();
  const { pid, rows } = await seed(server);
  console.log(
    `  ${label}: seeded ${rows} answer rows in ${Math.round((performance.now() - started) / 1000)} s`,
  );
  const out: BenchResult[] = [];
  for (const [name, f] of [
    ['no filter', {}],
    ['gender filter', { gender: 'female' }],
    ['city filter (Moscow, 41 %)', { city: moscow }],
    ['Kazan, age 25–40', { city: kazan, ageMin: 25, ageMax: 40 }],
  ] as [string, ReportFilters][]) {
    const ms = await median(() => dropOffCounts(server.app.db, pid, f), 5, 1);
    console.log(`  ${label}, ${name}: drop-off ${ms} ms`);
    out.push({
      name: `${label}, ${name}: funnel, timing and timeline queries`,
      value: ms,
      unit: 'ms',
      budget: 100,
    });
  }
  for (const format of ['xlsx', 'csv', 'sav']) {
    const m = await download(server, pid, format);
    console.log(`  ${label}, ${format}: ${JSON.stringify(m)}`);
    out.push(
      {
        name: `${label}: ${format.toUpperCase()} download (fast reader)`,
        value: m.ms,
        unit: 'ms',
        note: `${(m.bytes / MB).toFixed(1)} MB written; longest event-loop stall ${m.longestStallMs} ms`,
      },
      {
        name: `${label}: ${format.toUpperCase()} download, peak memory growth`,
        value: Math.round((m.rssPeak - m.rssBefore) / 1024),
        unit: 'KB',
        budget: 100 * 1024,
        note: `RSS ${Math.round(m.rssBefore / MB)} → ${Math.round(m.rssPeak / MB)} MB; peaks: heap ${Math.round(m.heapPeak / MB)} MB, buffers ${Math.round(m.arrayBuffersPeak / MB)} MB`,
      },
    );
  }
  return out;
}

const bench: Bench = () => onEachDatabase(measure);
export default bench;
