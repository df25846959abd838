import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser, type Page, type Route } from 'playwright-core';
import { ROUTES } from '../../src/views/routes';
import { pageFixture, type PageFixture } from './pages';
import type { BenchResult } from './run';

// JavaScript per route (DESIGN.md section 7, issue 25): the production build served by the real
// server, every route opened in Chromium (signed in as an administrator, /project and /report as
// the demo researcher on a 1 000-question project and the demo report), adding up the gzip size of
// every script the page loaded until the network is quiet. Two pages are counted up to the moment
// they are usable: /project as a browser loads it, nothing held back (issue 34), every script asked
// for before its outline was painted (Resource Timing's start against the page's own clock; the
// outline is interactive from that frame on, which a click on a row then checks), the canvas's
// chunk (cytoscape) included if it was asked for by then; /report until its numbers show while
// uPlot's chunk is withheld. The library's chunk is reported beside. Service workers are blocked so
// precaching does not count. BENCH_DIST=<dir> reuses an existing build; BUNDLE_LIST=1 prints the
// chunks each route fetched; BUNDLE_ONLY=/project measures that route alone.

export const title = 'Bundle size per route (JS loaded by the page, gzip)';

const SIGNED_OUT_KB = 100;
const MAIN_KB = 150;
const PROJECT_KB = 300;
const REPORT_KB = 150;

function gzipKb(file: string): number {
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length / 1024;
}
const round = (kb: number) => Math.round(kb * 10) / 10;

/** The built chunks holding a library, found by a string only that library's code has. */
function chunksWith(dist: string, marker: RegExp): Set<string> {
  const dir = path.join(dist, 'assets');
  return new Set(
    fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.js') && marker.test(fs.readFileSync(path.join(dir, f), 'utf8')))
      .map((f) => `/assets/${f}`),
  );
}
export const CANVAS_MARKER = /cytoscape/;
export const UPLOT_MARKER = /u-over/;

interface Visit {
  scripts: Set<string>;
  /** /project: when the canvas's chunk was asked for, from the outline's paint (ms; negative: before). */
  canvasAfterOutline?: number;
  /** Chunks held back until the page was usable. */
  held: Set<string>;
  /** Whether the page became usable while they were held. */
  usableWithoutThem: boolean;
}

async function visit(
  browser: Browser,
  f: PageFixture,
  url: string,
  opts: { auth?: string; hold?: Set<string>; usable?: (page: Page) => Promise<void> },
): Promise<Visit> {
  const context = await browser.newContext({ serviceWorkers: 'block', locale: 'ru' });
  if (opts.auth) await context.addInitScript((value) => localStorage.setItem('auth', value), opts.auth);
  const page = await context.newPage();
  const scripts = new Set<string>();
  const held = new Set<string>();
  const waiting: Route[] = [];
  if (opts.hold?.size)
    await page.route('**/assets/*.js', (route) => {
      const p = new URL(route.request().url()).pathname;
      if (opts.hold!.has(p)) {
        held.add(p);
        waiting.push(route);
      } else void route.continue();
    });
  page.on('response', (res) => {
    const u = new URL(res.url());
    if (u.origin === f.server.url && u.pathname.endsWith('.js')) scripts.add(u.pathname);
  });
  let usableWithoutThem = true;
  if (opts.usable) {
    await page.goto(url);
    try {
      await opts.usable(page);
    } catch {
      usableWithoutThem = false;
    }
    // What arrived until then is the page's weight; let the held chunks go and let it finish.
    const before = new Set(scripts);
    for (const r of waiting) await r.continue();
    await page.unroute('**/assets/*.js');
    await page.waitForLoadState('networkidle');
    await context.close();
    return { scripts: before, held, usableWithoutThem };
  }
  await page.goto(url, { waitUntil: 'networkidle' });
  // On a busy machine the first script can take longer to run than networkidle's 500 ms of quiet:
  // wait for the page's heading, then for the network to settle again.
  await page
    .locator('h1')
    .first()
    .waitFor({ timeout: 30_000 })
    .catch(() => {});
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  if (new URL(page.url()).pathname !== new URL(url).pathname)
    throw new Error(`${url} ended on ${page.url()}`);
  await context.close();
  return { scripts, held, usableWithoutThem };
}

/** Set in the page before the app: the first task after the frame that drew the first outline row. */
const OUTLINE_PAINTED = () => {
  const w = window as unknown as { __outlinePainted?: number };
  const observer = new MutationObserver(() => {
    if (!document.querySelector('[role="treeitem"][data-kind="question"]')) return;
    observer.disconnect();
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => (w.__outlinePainted = performance.now());
      channel.port2.postMessage(0);
    });
  });
  observer.observe(document, { subtree: true, childList: true });
};

/**
 * /project opened as a browser loads it, nothing held back: the scripts asked for before the
 * outline was painted, and when the canvas's chunk was asked for relative to that paint.
 */
async function visitOutline(
  browser: Browser,
  f: PageFixture,
  url: string,
  canvas: Set<string>,
): Promise<Visit> {
  const context = await browser.newContext({ serviceWorkers: 'block', locale: 'ru' });
  await context.addInitScript((value) => localStorage.setItem('auth', value), f.authOf(f.demo));
  await context.addInitScript(OUTLINE_PAINTED);
  const page = await context.newPage();
  await page.goto(url);
  let usableWithoutThem = true;
  try {
    // Interactive: a click on a row shows its fields (whether the canvas has come or not).
    await page.locator('[role="treeitem"][data-kind="question"]').first().click({ timeout: 30_000 });
    await page.locator('[data-fields-for]').first().waitFor({ timeout: 30_000 });
  } catch {
    usableWithoutThem = false;
  }
  await page.waitForLoadState('networkidle');
  const { painted, entries } = await page.evaluate(() => ({
    painted: (window as unknown as { __outlinePainted?: number }).__outlinePainted ?? NaN,
    entries: performance
      .getEntriesByType('resource')
      .map((e) => ({ name: e.name, start: e.startTime }))
      .filter((e) => new URL(e.name).pathname.endsWith('.js')),
  }));
  await context.close();
  if (!Number.isFinite(painted)) throw new Error('the outline was never painted');
  const scripts = new Set(
    entries
      .filter((e) => new URL(e.name).origin === f.server.url && e.start <= painted)
      .map((e) => new URL(e.name).pathname),
  );
  const canvasAsked = entries.find((e) => canvas.has(new URL(e.name).pathname));
  return {
    scripts,
    held: new Set(),
    usableWithoutThem,
    canvasAfterOutline: canvasAsked ? canvasAsked.start - painted : undefined,
  };
}

export default async function bundleBench(): Promise<BenchResult[]> {
  const f = await pageFixture();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  const results: BenchResult[] = [];
  const kbOf = (files: Iterable<string>) => [...files].reduce((s, p) => s + gzipKb(path.join(f.dist, p)), 0);
  try {
    // The HTML's inline scripts (the editor's head start, with its data) run on every page: counted
    // with each.
    const html = fs.readFileSync(path.join(f.dist, 'index.html'), 'utf8');
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>[\s\S]*?<\/script>/g)]
      .map((m) => m[0])
      .join('');
    const inlineKb = inline ? zlib.gzipSync(inline, { level: 9 }).length / 1024 : 0;
    const canvas = chunksWith(f.dist, CANVAS_MARKER);
    const uplot = chunksWith(f.dist, UPLOT_MARKER);
    for (const r of ROUTES) {
      if (process.env.BUNDLE_ONLY && r.path !== process.env.BUNDLE_ONLY) continue;
      let v: Visit;
      let name = r.path;
      let budget = r.public ? SIGNED_OUT_KB : MAIN_KB;
      let note = '';
      if (r.path === '/project') {
        name = `/project?pid= (1 000 questions) before the outline is interactive`;
        budget = PROJECT_KB;
        v = await visitOutline(browser, f, `${f.server.url}/project?pid=${f.bigProject}`, canvas);
        const asked = v.canvasAfterOutline;
        note =
          `nothing held back; ${v.usableWithoutThem ? 'a row clicked shows its fields' : 'the outline did NOT answer a click'}; ` +
          (asked === undefined
            ? "the canvas's chunk not asked for"
            : `the canvas's chunk asked for ${Math.abs(Math.round(asked))} ms ${asked >= 0 ? 'after' : 'BEFORE'} the outline's paint`);
      } else if (r.path === '/report') {
        name = `/report?pid= (demo) until its numbers show`;
        budget = REPORT_KB;
        v = await visit(browser, f, `${f.server.url}/report?pid=${f.demoProject}`, {
          auth: f.authOf(f.demo),
          hold: uplot,
          usable: async (page) => {
            await page.locator('[data-chart]').first().waitFor({ timeout: 30_000 });
            await page.locator('table').first().waitFor({ timeout: 30_000 });
          },
        });
        note = `uPlot chunk held back: ${v.usableWithoutThem ? 'numbers shown without it' : 'NOT shown without it'}`;
      } else if (r.path === '/responses') {
        name = `/responses?pid= (demo) until its rows show`;
        v = await visit(browser, f, `${f.server.url}/responses?pid=${f.demoProject}`, {
          auth: f.authOf(f.demo),
        });
      } else {
        v = await visit(browser, f, `${f.server.url}${r.path}`, {
          auth: r.public ? undefined : f.authOf(f.admin),
        });
        if (r.public) name += ' (signed out)';
      }
      if (process.env.BUNDLE_LIST)
        console.log(
          r.path,
          [...v.scripts]
            .map((s) => s.replace(/^\/assets\//, '').replace(/-[\w-]{8}\.js$/, ''))
            .sort()
            .join(' '),
        );
      // The service worker's chunk is asked for only once the page has painted, loaded and the
      // browser is idle (src/main.tsx; e2e early-calls checks it): after the page is interactive,
      // so not part of its weight before then (DESIGN.md 7). Named in the note.
      const late = [...v.scripts].filter((s) => /\/assets\/pwa-[\w-]{8}\.js$/.test(s));
      for (const s of late) v.scripts.delete(s);
      if (late.length)
        note += `${note ? '; ' : ''}the service worker's chunk (${round(kbOf(late))} KB), asked for once loaded and idle, not counted`;
      const locales = [...v.scripts].filter((s) => s.includes('/i18n-')).map((s) => s.split('-')[1]);
      results.push({
        name,
        value: round(kbOf(v.scripts) + inlineKb),
        unit: 'KB gzip',
        budget,
        note: `${v.scripts.size} files and the HTML's inline script (${round(inlineKb)} KB); dictionary chunks ${locales.length} (${[...new Set(locales)].join(', ')})${note ? `; ${note}` : ''}`,
      });
    }
    results.push({
      name: "the canvas's chunk (cytoscape), after the outline",
      value: round(kbOf(canvas)),
      unit: 'KB gzip',
      note: `${canvas.size} file(s)`,
    });
    results.push({
      name: "the report's chart chunk (uPlot), after its numbers",
      value: round(kbOf(uplot)),
      unit: 'KB gzip',
      note: `${uplot.size} file(s)`,
    });

    const assets = fs.readdirSync(path.join(f.dist, 'assets')).filter((x) => x.endsWith('.js'));
    const largest = assets
      .map((x) => ({ x, kb: gzipKb(path.join(f.dist, 'assets', x)) }))
      .sort((a, b) => b.kb - a.kb)[0];
    results.push({
      name: 'largest chunk',
      value: round(largest.kb),
      unit: 'KB gzip',
      note: largest.x.replace(/-[\w-]{8}\.js$/, '.js'),
    });
    results.push({
      name: 'all JS (what the service worker precaches)',
      value: round(kbOf(assets.map((x) => `/assets/${x}`))),
      unit: 'KB gzip',
      note: `${assets.length} files`,
    });
  } finally {
    await browser.close();
    await f.close();
  }
  return results;
}
