import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { chromium } from 'playwright-core';
import { pageFixture } from './pages';
import type { BenchResult } from './run';

// Lighthouse (issue 25, DESIGN.md section 7): mobile with simulated throttling (Lighthouse's
// default: the page loads at full speed on loopback and the timings are modelled for a slow phone
// on slow 4G, so no request leaves the machine), five runs per page, the median written.
// Pages: /login, /projects signed in, /report of the demo project, and an open survey link.
// Chromium is the system one (CHROME_PATH, else /usr/bin/chromium), launched by chrome-launcher
// headless; Playwright attaches to it only to put the sign-in into localStorage and to clear the
// HTTP cache and service worker between runs (Lighthouse keeps storage: disableStorageReset).
// BENCH_DIST=<dir> reuses an existing build; LIGHTHOUSE_RUNS=<n> changes the number of runs.

export const title = 'Lighthouse (mobile, simulated throttling, median of five runs)';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 5);
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

export default async function lighthouseBench(): Promise<BenchResult[]> {
  const f = await pageFixture();
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    // chrome-launcher's defaults already turn off background networking, component updates,
    // sync, default apps, extensions and the first-run pages: nothing but loopback is asked.
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const results: BenchResult[] = [];
  try {
    const context = browser.contexts()[0];
    const helper = await context.newPage();
    const cdp = await context.newCDPSession(helper);
    await helper.goto(`${f.server.url}/404-bench`);
    const pages = [
      { name: '/login', url: `${f.server.url}/login`, auth: null, perf: 98 },
      { name: '/projects (signed in)', url: `${f.server.url}/projects`, auth: f.authOf(f.demo), perf: 95 },
      {
        name: '/report of the demo project',
        url: `${f.server.url}/report?pid=${f.demoProject}`,
        auth: f.authOf(f.demo),
        perf: 95,
      },
      {
        name: '/s/<token> (respondent page)',
        url: `${f.server.url}/s/${f.surveyLink}`,
        auth: null,
        perf: 98,
      },
    ];
    for (const p of pages) {
      const scores: Record<string, number[]> = {};
      const metrics: Record<string, number[]> = { fcp: [], lcp: [], tbt: [], cls: [] };
      for (let i = 0; i < RUNS; i++) {
        // A first visit each time: no HTTP cache, no service worker; only the sign-in kept.
        await cdp.send('Network.clearBrowserCache');
        await cdp.send('Storage.clearDataForOrigin', {
          origin: f.server.url,
          storageTypes: 'service_workers,cache_storage,indexeddb,local_storage',
        });
        await helper.evaluate((auth) => {
          if (auth) localStorage.setItem('auth', auth);
        }, p.auth);
        const audit = async () =>
          (
            await lighthouse(p.url, {
              port: chrome.port,
              output: 'json',
              logLevel: 'error',
              onlyCategories: [...CATEGORIES],
              disableStorageReset: true,
              formFactor: 'mobile',
              throttlingMethod: 'simulate',
            })
          )?.lhr;
        // A trace Lighthouse failed to record (NO_NAVSTART and the like) is run again, once.
        let lhr = await audit();
        if (!lhr || lhr.runtimeError) lhr = await audit();
        if (!lhr || lhr.runtimeError) throw new Error(`${p.name}: ${lhr?.runtimeError?.message}`);
        for (const c of CATEGORIES)
          (scores[c] ??= []).push(Math.round((lhr.categories[c]?.score ?? 0) * 100));
        metrics.fcp.push(lhr.audits['first-contentful-paint'].numericValue ?? NaN);
        metrics.lcp.push(lhr.audits['largest-contentful-paint'].numericValue ?? NaN);
        metrics.tbt.push(lhr.audits['total-blocking-time'].numericValue ?? NaN);
        metrics.cls.push(lhr.audits['cumulative-layout-shift'].numericValue ?? NaN);
        if (i === 0) {
          const failing = Object.values(lhr.audits)
            .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
            .map((a) => a.id);
          console.log(`  ${p.name}: audits not passed: ${failing.join(', ') || 'none'}`);
        }
      }
      const spread = (xs: number[]) => `${Math.min(...xs)}–${Math.max(...xs)}`;
      results.push({
        name: `${p.name}: performance`,
        value: median(scores.performance),
        unit: 'score',
        budget: p.perf,
        note: `runs ${spread(scores.performance)}; FCP ${Math.round(median(metrics.fcp))} ms, LCP ${Math.round(median(metrics.lcp))} ms, TBT ${Math.round(median(metrics.tbt))} ms, CLS ${median(metrics.cls).toFixed(3)}`,
      });
      results.push({
        name: `${p.name}: accessibility`,
        value: median(scores.accessibility),
        unit: 'score',
        budget: 100,
      });
      results.push({
        name: `${p.name}: best practices`,
        value: median(scores['best-practices']),
        unit: 'score',
        budget: 100,
      });
      results.push({
        name: `${p.name}: SEO`,
        value: median(scores.seo),
        unit: 'score',
        note: p.name.startsWith('/s/')
          ? 'noindex kept on purpose: a private survey link must not be indexed, which Lighthouse counts against SEO'
          : p.auth
            ? 'a signed-in page'
            : undefined,
      });
    }
  } finally {
    await browser.close().catch(() => {});
    chrome.kill();
    await f.close();
  }
  return results;
}
