import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { startServer, type TestServer } from '../server/helpers';
import { insertProject, saveProject } from '../server/content-helpers';
import { bigProject } from '../unit/content-fixtures';
import { Role } from '../../src/domain/roles';
import { CHROMIUM_FLAGS } from '../chromium-flags';

// The reopen as a user does it (issue 34, part 2): a project opened before in this browser is opened
// again in a new tab of the same profile (HTTP cache, V8's code cache, IndexedDB, localStorage all
// kept), with GET /project held back 2 s through CDP's Fetch domain (Playwright's page.route would
// turn the HTTP cache off and make it a first visit). Timed in the page, from navigation start:
// the first question row in the DOM and painted, the source note's text and when it showed, when
// GET /project was asked (Resource Timing). Shared by the bench (editor-reopen.bench.ts) and the
// trace (reopen-trace.ts, NEW_TAB=1).

/**
 * The browser of the new-tab reopen: the e2e suite's (tests/chromium-flags.ts), without the WebUI
 * omnibox popup each new window loads in headless Chromium, which a user's new tab does not.
 */
export function launchReopenBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: CHROMIUM_FLAGS,
  });
}

/** GET /project?pid=… and nothing else (the session's check, the app's config go through). */
export const PROJECT_GET = '*/api/v1/service/project?*';
export const HOLD_MS = 2000;
/**
 * How long the project's tab has been closed when it is opened again: Chromium closes an origin's
 * IndexedDB backing store 2 s after its last connection, as it is when a user comes back later.
 */
export const AWAY_MS = 3000;

/** Set in every page of the context before any of the app's code runs. */
export const OBSERVE_REOPEN = () => {
  interface Seen {
    row?: number;
    rowPainted?: number;
    /** The Element Timing API's renderTime of the first row's text: when its frame was presented. */
    rowPresented?: number;
    livePresented?: number;
    /** The static floor page's line of text presented (writeFloorPage). */
    floorPresented?: number;
    liveRow?: number;
    liveRowPainted?: number;
    picture: boolean;
    sources: [number, string][];
  }
  const w = window as unknown as { __reopen: Seen };
  const r: Seen = (w.__reopen = { sources: [], picture: false });
  // The first task after the frame that draws what has just come into the DOM.
  const painted = (done: (t: number) => void) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => done(performance.now());
      channel.port2.postMessage(0);
    });
  // Element Timing (https://w3c.github.io/element-timing/): the browser reports when an element
  // marked `elementtiming` had its text painted, with the frame's presentation time. The mark goes
  // on the row and everything in it (text is reported for the block that holds it), set as the row
  // comes into the DOM, before any frame has drawn it.
  const timeElements = (row: Element, name: string) => {
    for (const el of [row, ...row.querySelectorAll('*')]) el.setAttribute('elementtiming', name);
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEntry & { identifier: string; renderTime: number })[]) {
      const at = e.renderTime || e.startTime;
      if (e.identifier === 'bench-first-row') r.rowPresented = Math.min(r.rowPresented ?? at, at);
      if (e.identifier === 'bench-live-row') r.livePresented = Math.min(r.livePresented ?? at, at);
      if (e.identifier === 'bench-floor') r.floorPresented = Math.min(r.floorPresented ?? at, at);
    }
  }).observe({ type: 'element', buffered: true });
  const observer = new MutationObserver(() => {
    // Every change of the source note (data-source: local, server, draft, offline…), timed; the
    // opening picture's note (db/openingPicture.ts) until the live page has its own.
    const source =
      document.querySelector('[data-source]')?.getAttribute('data-source') ??
      document.querySelector('#editor-picture [data-picture-source]')?.getAttribute('data-picture-source') ??
      '';
    if (source !== (r.sources.at(-1)?.[1] ?? '')) r.sources.push([performance.now(), source]);
    const live = document.querySelector('[role="treeitem"][data-kind="question"]');
    const pictured = document.querySelector('#editor-picture [data-picture-kind="question"]');
    if (r.row === undefined && (live || pictured)) {
      r.row = performance.now();
      r.picture = !live;
      timeElements((live || pictured)!, 'bench-first-row');
      painted((t) => {
        r.rowPainted = t;
        // The trace (reopen-trace.ts) finds the page's thread and its time origin by this mark.
        performance.mark('outline-shown');
      });
    }
    if (r.liveRow === undefined && live) {
      r.liveRow = performance.now();
      // A live first row is timed as the first row already.
      if (r.picture) timeElements(live, 'bench-live-row');
      painted((t) => {
        r.liveRowPainted = t;
        // Told through the console: a wait from Playwright would run its own script in the page.
        console.debug('bench:row');
      });
    }
  });
  observer.observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['data-source'],
  });
};

export interface ReopenFixture {
  server: TestServer;
  context: BrowserContext;
  url: string;
  close: () => Promise<void>;
}

/** A server with the 1 000-question project, a signed-in context that has opened it (draft and layout stored). */
export async function reopenFixture(
  browser: Browser,
  dist: string,
  opts: { keepFirstTab?: boolean } = {},
): Promise<ReopenFixture> {
  const server = await startServer((c) => {
    c.staticDir = dist;
  });
  const org = await server.createOrganization();
  const researcher = await server.as(Role.Researcher, { organizationId: org });
  const pid = await insertProject(server, org, { name: 'Thousand questions' });
  const saved = await saveProject(server, researcher, pid, bigProject(), 0);
  if (saved.status !== 200) throw new Error(`fixture not saved: ${saved.status}`);
  const auth = JSON.stringify({
    accessToken: researcher.accessToken,
    refreshToken: researcher.refreshToken,
    userId: researcher.user.id,
  });
  const context = await browser.newContext({
    // SW=1: with the app's service worker, as an installed app opens (it serves the HTML and the
    // chunks from its precache); by default the HTTP cache alone, as the other benches load.
    serviceWorkers: process.env.SW ? 'allow' : 'block',
    locale: 'en',
    viewport: { width: 1440, height: 900 },
  });
  // Signed in once, as the login page leaves it; from then on the app keeps it itself.
  await context.addInitScript((value) => {
    if (!localStorage.getItem('auth')) localStorage.setItem('auth', value);
  }, auth);
  await context.addInitScript('window.__name = (f) => f');
  await context.addInitScript(OBSERVE_REOPEN);
  const url = `${server.url}/project?pid=${pid}`;
  // The first visit: the list, then the project twice (its copy, its layout, every chunk cached).
  const first = await context.newPage();
  await first.goto(`${server.url}/projects`);
  await first.getByRole('heading').first().waitFor();
  for (let i = 0; i < 2; i++) {
    await first.goto(url);
    await first.locator('[role="region"][data-complete]').waitFor({ timeout: 60_000 });
  }
  // The copy is written by the autosave and on leaving; the tab is closed as a user closes it.
  await first.waitForTimeout(1500);
  if (process.env.SW)
    await first.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return registration.active?.state;
    });
  if (!opts.keepFirstTab) await first.close({ runBeforeUnload: true });
  return {
    server,
    context,
    url,
    close: async () => {
      await context.close();
      await server.close();
    },
  };
}

export interface ReopenTimes {
  /** The first question row in the DOM, from navigation start: the opening picture's, when it was shown. */
  row: number;
  /** The first task after the frame that drew it. */
  rowPainted: number;
  /** When the frame that drew its text was presented (Element Timing's renderTime). */
  rowPresented: number;
  /** The same for the live editor's first row. */
  livePresented: number;
  /** The first row came with the opening picture (db/openingPicture.ts). */
  picture: boolean;
  /** The live editor's first question row in the DOM (the page answers input from then), and painted. */
  liveRow: number;
  liveRowPainted: number;
  /** The source note when the first row came ('' when none). */
  noteAtRow: string;
  /** When GET /project was asked, from navigation start. */
  projectAsked: number;
  /** When its (held) answer ended. */
  projectAnswered: number;
  /** The note said "local" (checking the server for changes) from the first row until the answer. */
  checkingUntilAnswer: boolean;
  measures: string[];
}

/**
 * One reopen in a new tab of the context, AWAY_MS after the last tab was closed, GET /project held HOLD_MS. `around` wraps the navigation
 * (the trace starts and ends there). The tab is closed afterwards, once the held answer has come
 * and been shown.
 */
export async function reopenInNewTab(
  f: ReopenFixture,
  around: (page: Page, cdp: CDPSession, go: () => Promise<void>) => Promise<void> = (_p, _c, go) => go(),
): Promise<ReopenTimes> {
  await new Promise((r) => setTimeout(r, AWAY_MS));
  const page = await f.context.newPage();
  const cdp = await f.context.newCDPSession(page);
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: PROJECT_GET, requestStage: 'Request' }] });
  cdp.on('Fetch.requestPaused', ({ requestId }) => {
    setTimeout(() => void cdp.send('Fetch.continueRequest', { requestId }).catch(() => {}), HOLD_MS);
  });
  await around(page, cdp, async () => {
    await Promise.all([
      page.waitForEvent('console', { predicate: (m) => m.text() === 'bench:row', timeout: 60_000 }),
      page.goto(f.url),
    ]);
  });
  // The held answer taken: the note leaves "local".
  await page.locator('[data-source]:not([data-source="local"])').waitFor({ timeout: 20_000 });
  const seen = await page.evaluate(() => {
    const w = window as unknown as {
      __reopen: {
        row: number;
        rowPainted: number;
        rowPresented?: number;
        livePresented?: number;
        liveRow: number;
        liveRowPainted: number;
        picture: boolean;
        sources: [number, string][];
      };
    };
    const project = performance
      .getEntriesByType('resource')
      .find((e) => e.name.includes('/api/v1/service/project?')) as PerformanceResourceTiming | undefined;
    return {
      ...w.__reopen,
      projectAsked: project?.startTime ?? NaN,
      projectAnswered: project?.responseEnd ?? NaN,
      measures: [...performance.getEntriesByType('measure'), ...performance.getEntriesByType('mark')].map(
        (m) => `${m.name} ${Math.round(m.startTime)}+${Math.round(m.duration)}`,
      ),
    };
  });
  await page.close();
  const atRow = seen.sources.filter(([t]) => t <= seen.row).at(-1)?.[1] ?? '';
  const leftLocal = seen.sources.find(([t, s]) => t > seen.row && s !== 'local')?.[0] ?? Infinity;
  return {
    row: seen.row,
    rowPainted: seen.rowPainted,
    rowPresented: seen.rowPresented ?? NaN,
    livePresented: (seen.picture ? seen.livePresented : seen.rowPresented) ?? NaN,
    picture: seen.picture,
    liveRow: seen.liveRow,
    liveRowPainted: seen.liveRowPainted,
    noteAtRow: atRow,
    projectAsked: seen.projectAsked,
    projectAnswered: seen.projectAnswered,
    checkingUntilAnswer: atRow === 'local' && leftLocal >= seen.projectAnswered,
    measures: seen.measures,
  };
}

/**
 * The machine's floor for a painted page in a new tab: a static page of the same server (the same
 * headers, so the same new renderer), with the app's stylesheet and one line of text, written into
 * the build's folder. Timed as the row is: its text presented, from navigation.
 */
export function writeFloorPage(dist: string): string {
  const css = fs.readdirSync(path.join(dist, 'assets')).find((f) => f.endsWith('.css'));
  fs.writeFileSync(
    path.join(dist, 'bench-floor.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Floor</title>` +
      (css ? `<link rel="stylesheet" href="/assets/${css}">` : '') +
      `</head><body><p elementtiming="bench-floor">Question 1. How often do you play?</p></body></html>`,
  );
  return '/bench-floor.html';
}

/** A new tab of the context opening the floor page: its text presented, from navigation. */
export async function floorInNewTab(f: ReopenFixture, page: string): Promise<number> {
  await new Promise((r) => setTimeout(r, AWAY_MS));
  const tab = await f.context.newPage();
  await tab.goto(`${f.server.url}${page}`);
  const at = await tab
    .waitForFunction(
      () => (window as unknown as { __reopen: { floorPresented?: number } }).__reopen.floorPresented,
    )
    .then((h) => h.jsonValue());
  await tab.close();
  return at ?? NaN;
}
