import type { AddressInfo } from 'node:net';
import { buildApp } from '../../server/app';
import type { TestServer } from '../server/helpers';
import type { Bench, BenchResult } from './run';
import { onEachDatabase } from './databases';
import { seed } from './report-server.bench';
import { answersBeside, type Beside, type GapParts } from './answers-beside';

// No stall in any download (DESIGN.md 7, issue 34 part 3): the longest event-loop delay of the
// server while it sends each download of 100 000 respondents × 20 questions (the report's XLSX, CSV
// and SAV, and a crosstab's XLSX and CSV; and the /report page's JSON of both) through the real route, with respondents answering beside
// it at a steady rate, on SQLite and, when BENCH_DATABASE_URL (or TEST_DATABASE_URL) names one, on
// PostgreSQL. Each download is made twice in the same run on the same rows: by a second server on the
// same database with DOWNLOAD_THREADS=0 (written on the main thread, as before), then by the bench's
// server (a download thread). The answers' p99 during each download stands beside their p99 alone.
// BENCH_DOWNLOADS (a comma list of the names below) picks some of the files.

export const title = 'Downloads beside answers: the longest event-loop stall (100 000 respondents)';

/** Answers a second beside the downloads, over this many connections. */
const RATE = 300;
const CONNECTIONS = 50;
/** The answers alone, for their reference p99. */
const ALONE_MS = 8000;
/** Answers before the reference, unmeasured. */
const WARM_MS = 3000;
const MB = 1024 * 1024;

/** What the longest stall was made of: the server's own work, its collections, and the wait for a core. */
function gapNote(gap: GapParts): string {
  return `the longest gap between 10 ms ticks was ${gap.ms} ms late: the main thread ran ${gap.cpuMs} ms of it (collections ${gap.gcMs} ms) and waited ${gap.waitedMs} ms for a core`;
}

async function measure(label: string, server: TestServer): Promise<BenchResult[]> {
  const started = performance.now();
  const seeded = await seed(server);
  const { pid, content } = seeded;
  console.log(
    `  ${label}: seeded ${seeded.rows} answer rows in ${Math.round((performance.now() - started) / 1000)} s`,
  );
  const beside: Beside = await answersBeside(server, { batches: 1, rate: RATE, connections: CONNECTIONS });

  // The same database through a server that writes downloads on its main thread (the code before).
  const mainThread = await buildApp(
    { ...server.config, downloadThreads: 0, callbacks: { ...server.config.callbacks, sender: false } },
    { logger: false },
  );
  await mainThread.listen({ port: 0, host: '127.0.0.1' });
  const mainUrl = `http://127.0.0.1:${(mainThread.server.address() as AddressInfo).port}`;

  const questions = content.questionnaires[0].blocks[0].questions;
  const genre = questions.find((q) => q.category === 'oneAnswer')!;
  const spend = questions.find((q) => q.category === 'qualification')!;
  const files = [
    { name: 'XLSX', path: `/project/stats/file?pid=${pid}&type=stats&format=xlsx` },
    { name: 'CSV', path: `/project/stats/file?pid=${pid}&type=stats&format=csv` },
    { name: 'SAV', path: `/project/stats/file?pid=${pid}&type=stats&format=sav` },
    {
      name: 'crosstab XLSX',
      path: `/project/stats/crosstab?pid=${pid}&rows=${genre.id}&cols=${spend.id}&format=xlsx`,
    },
    {
      name: 'crosstab CSV',
      path: `/project/stats/crosstab?pid=${pid}&rows=${genre.id}&cols=age&format=csv`,
    },
    // Not downloads, but the same reads: the /report page's report and its Compare table, as JSON
    // (made in the download thread once one is ready: server/reports/download-threads.ts `json`).
    { name: 'report JSON', path: `/project/stats/file?pid=${pid}&type=json` },
    {
      name: 'crosstab JSON',
      path: `/project/stats/crosstab?pid=${pid}&rows=${genre.id}&cols=${spend.id}`,
    },
  ];

  // BENCH_DOWNLOADS=CSV,SAV runs only those files (a re-measure of one of them after a change).
  const only = process.env.BENCH_DOWNLOADS?.split(',').map((n) => n.trim());
  const chosen = only ? files.filter((f) => only.includes(f.name)) : files;
  const out: BenchResult[] = [];
  try {
    // As a researcher comes to the downloads: the /report page's own call first (which starts the
    // download thread on the bench's server).
    const reader = await server.login(seeded.session.user.email);
    const page = await fetch(`${server.url}/api/v1/service/project/stats/file?pid=${pid}&type=json`, {
      headers: { 'x-auth-token': reader.accessToken },
    });
    if (page.status !== 200) throw new Error(`the report: ${page.status}`);
    await page.arrayBuffer();
    // The answers' first seconds after the seed compile their path, fill the server's caches and
    // collect the seed's garbage, as a server taking answers has long done: not the reference.
    const warming = beside.start();
    await new Promise((r) => setTimeout(r, WARM_MS));
    await warming.stop();
    const alone = beside.start();
    await new Promise((r) => setTimeout(r, ALONE_MS));
    const ref = await alone.stop();
    out.push({
      name: `${label}: answers alone (${RATE} a second), p99`,
      value: ref.answers.p99,
      unit: 'ms',
      budget: 50,
      note: `${ref.answers.answered} answered, ${ref.answers.failed} not 2xx; longest event-loop delay ${ref.longestDelayMs} ms, longest busy stretch ${ref.longestBusyMs} ms, longest garbage collection ${ref.longestGcMs} ms; ${gapNote(ref.longestGap)}`,
    });
    for (const file of chosen) {
      for (const [how, base] of [
        ['main thread (before)', mainUrl],
        ['download thread (after)', server.url],
      ] as const) {
        // Seeding takes minutes, past the access token's life: a fresh sign-in for each download.
        const session = await server.login(seeded.session.user.email);
        const run = beside.start();
        const got = await beside.download(`${base}/api/v1/service${file.path}`, session.accessToken);
        const { answers, longestDelayMs, longestBusyMs, longestGcMs, longestGap } = await run.stop();
        if (got.status !== 200) throw new Error(`${file.name} (${how}): ${got.status}`);
        const line = `${label}: ${file.name}, ${how}`;
        console.log(
          `  ${line}: stall ${longestDelayMs} ms, ${JSON.stringify(got)}, answers ${JSON.stringify(answers)}`,
        );
        out.push({
          name: `${line}: longest event-loop stall`,
          value: longestDelayMs,
          unit: 'ms',
          budget: 50,
          note: `${(got.bytes / MB).toFixed(1)} MB in ${got.ms} ms, first bytes at ${got.firstByteMs} ms; answers beside: p99 ${answers.p99} ms (alone ${ref.answers.p99}), ${answers.answered} answered, ${answers.failed} not 2xx; ${gapNote(longestGap)}`,
        });
        out.push({
          name: `${line}: the main thread's longest busy stretch`,
          value: longestBusyMs,
          unit: 'ms',
          budget: 50,
          note: `CPU time of the main thread between two ticks of a 10 ms timer (what a shared machine does not add); its longest garbage collection ${longestGcMs} ms`,
        });
      }
    }
  } finally {
    beside.close();
    await mainThread.close();
  }
  return out;
}

const bench: Bench = () => onEachDatabase(measure);
export default bench;
