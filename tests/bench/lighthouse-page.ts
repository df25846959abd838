import fs from 'node:fs';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { chromium } from 'playwright-core';
import { pageFixture, type PageFixture } from './pages';

// Lighthouse on one or two pages, for finding where the time goes (not run by `npm run bench`):
//   npx tsx tests/bench/lighthouse-page.ts projects,report [runs] [outPrefix]
// Same settings as lighthouse.bench.ts; each run's report is written to <outPrefix>-<page>-<i>.json
// (and Lighthouse's trace beside it with LH_TRACE=1). DISTS=before=/tmp/a,after=/tmp/b compares
// builds run by run, interleaved, so that a machine shared with other work loads both alike.

const which = (process.argv[2] ?? 'projects,report').split(',');
const runs = Number(process.argv[3] ?? 3);
const out = process.argv[4] ?? '/tmp/lh/run';
const dists = (process.env.DISTS ?? `build=${process.env.BENCH_DIST ?? ''}`)
  .split(',')
  .map((d) => d.split('='));

const fixtures: [string, PageFixture][] = [];
for (const [label, dist] of dists) {
  if (dist) process.env.BENCH_DIST = dist;
  else delete process.env.BENCH_DIST;
  fixtures.push([label, await pageFixture()]);
}
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
const scores: Record<string, number[]> = {};
try {
  const context = browser.contexts()[0];
  const helper = await context.newPage();
  const cdp = await context.newCDPSession(helper);
  for (const name of which) {
    for (let i = 0; i < runs; i++) {
      for (const [label, f] of fixtures) {
        const url = {
          projects: `${f.server.url}/projects`,
          report: `${f.server.url}/report?pid=${f.demoProject}`,
          login: `${f.server.url}/login`,
        }[name]!;
        // A page of the origin without the app's scripts: an SPA page would go on fetching chunks
        // after the cache is cleared, and Lighthouse would find them cached.
        await helper.goto(`${f.server.url}/api/v1/service/app-config`);
        await cdp.send('Network.clearBrowserCache');
        await cdp.send('Storage.clearDataForOrigin', {
          origin: f.server.url,
          storageTypes: 'service_workers,cache_storage,indexeddb,local_storage',
        });
        const auth = name === 'login' ? null : f.authOf(f.demo);
        await helper.evaluate((a) => {
          if (a) localStorage.setItem('auth', a);
        }, auth);
        const result = await lighthouse(url, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices'],
          disableStorageReset: true,
          formFactor: 'mobile',
          throttlingMethod: 'simulate',
        });
        const lhr = result?.lhr;
        if (!lhr || lhr.runtimeError) {
          console.log(`${label} ${name} #${i}: ${lhr?.runtimeError?.message}`);
          continue;
        }
        fs.writeFileSync(`${out}-${label}-${name}-${i}.json`, JSON.stringify(lhr));
        if (process.env.LH_TRACE && result.artifacts)
          fs.writeFileSync(
            `${out}-${label}-${name}-${i}.trace.json`,
            JSON.stringify((result.artifacts as { Trace?: unknown }).Trace),
          );
        const a = lhr.audits;
        const score = (c: string) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
        const ms = (id: string) => Math.round(a[id].numericValue ?? NaN);
        (scores[`${label} ${name}`] ??= []).push(score('performance'));
        console.log(
          `${label} ${name} #${i}: perf ${score('performance')} a11y ${score('accessibility')} bp ${score('best-practices')}` +
            ` FCP ${ms('first-contentful-paint')} LCP ${ms('largest-contentful-paint')} TBT ${ms('total-blocking-time')}` +
            ` CLS ${(a['cumulative-layout-shift'].numericValue ?? NaN).toFixed(3)} SI ${ms('speed-index')}`,
        );
      }
    }
  }
  for (const [k, xs] of Object.entries(scores)) {
    const s = [...xs].sort((x, y) => x - y);
    console.log(`${k}: median ${s[Math.floor(s.length / 2)]} (${s.join(', ')})`);
  }
} finally {
  await browser.close().catch(() => {});
  chrome.kill();
  for (const [, f] of fixtures) await f.close();
}
