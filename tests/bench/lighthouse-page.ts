import fs from 'node:fs';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { chromium } from 'playwright-core';
import { pageFixture } from './pages';

// One or two pages of the Lighthouse bench, for finding where the time goes (not run by
// `npm run bench`): `npx tsx tests/bench/lighthouse-page.ts projects|report [runs] [outPrefix]`.
// Same settings as lighthouse.bench.ts; each run's full report is written to <outPrefix>-<page>-<i>.json.

const which = (process.argv[2] ?? 'projects,report').split(',');
const runs = Number(process.argv[3] ?? 3);
const out = process.argv[4] ?? '/tmp/lh/run';

const f = await pageFixture();
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
try {
  const context = browser.contexts()[0];
  const helper = await context.newPage();
  const cdp = await context.newCDPSession(helper);
  await helper.goto(`${f.server.url}/404-bench`);
  const urls: Record<string, string> = {
    projects: `${f.server.url}/projects`,
    report: `${f.server.url}/report?pid=${f.demoProject}`,
    login: `${f.server.url}/login`,
  };
  for (const name of which) {
    for (let i = 0; i < runs; i++) {
      await cdp.send('Network.clearBrowserCache');
      await cdp.send('Storage.clearDataForOrigin', {
        origin: f.server.url,
        storageTypes: 'service_workers,cache_storage,indexeddb,local_storage',
      });
      const auth = name === 'login' ? null : f.authOf(f.demo);
      await helper.evaluate((a) => {
        if (a) localStorage.setItem('auth', a);
      }, auth);
      const lhr = (
        await lighthouse(urls[name], {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices'],
          disableStorageReset: true,
          formFactor: 'mobile',
          throttlingMethod: 'simulate',
        })
      )?.lhr;
      if (!lhr || lhr.runtimeError) {
        console.log(`${name} #${i}: ${lhr?.runtimeError?.message}`);
        continue;
      }
      fs.writeFileSync(`${out}-${name}-${i}.json`, JSON.stringify(lhr));
      const a = lhr.audits;
      console.log(
        `${name} #${i}: perf ${Math.round((lhr.categories.performance.score ?? 0) * 100)} a11y ${Math.round((lhr.categories.accessibility.score ?? 0) * 100)} bp ${Math.round((lhr.categories['best-practices'].score ?? 0) * 100)}` +
          ` FCP ${Math.round(a['first-contentful-paint'].numericValue!)} LCP ${Math.round(a['largest-contentful-paint'].numericValue!)} TBT ${Math.round(a['total-blocking-time'].numericValue!)} CLS ${(a['cumulative-layout-shift'].numericValue ?? NaN).toFixed(3)} SI ${Math.round(a['speed-index'].numericValue!)}`,
      );
    }
  }
} finally {
  await browser.close().catch(() => {});
  chrome.kill();
  await f.close();
}
