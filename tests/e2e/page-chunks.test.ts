import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { launchBrowser, startApp, watchErrors } from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { insertAnsweredProject } from '../server/content-helpers';
import { Role } from '../../src/domain/roles';
import { ROUTES } from '../../src/views/routes';
import { routeGroups } from '../../src/views/localeGroups';
import { BOOT_GROUPS } from '../../src/views/shell/locale';
import { BASE_CHUNK_GROUPS } from '../../src/views/shell/localeChunks';

// Issue 25, what the built pages fetch, decided without timing: every page fetches only the
// dictionary groups of the language it shows, and of them only the ones its route names; no page
// but the editor fetches the canvas library (cytoscape), the editor asks for it only once its
// outline has been painted (issue 34) and the outline works while that chunk is held back; the
// report shows its numbers while uPlot's chunk is held back.

const CYTOSCAPE = /cytoscape/;
const UPLOT = /u-over/;
/** xstate's core (the sign-in, modal and guide actors) and react-hot-toast's styler (goober). */
const XSTATE = /xstate\.init/;
const TOAST_LIBRARY = /_goober/;

describe('what each page fetches', () => {
  let server: TestServer;
  let browser: Browser;
  let admin: Session;
  let researcher: Session;
  let pid: number;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    const org = await server.createOrganization('Chunk Org');
    admin = await server.as(Role.Administrator, { organizationId: org });
    researcher = await server.as(Role.Researcher, { organizationId: org });
    pid = await insertAnsweredProject(server, org, researcher.user.id, {
      name: 'Chunks',
      seed: 7,
      count: 40,
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function signedInContext(session: Session | null, locale: 'en' | 'ru'): Promise<BrowserContext> {
    const context = await browser.newContext({ locale, serviceWorkers: 'block' });
    await context.addInitScript(
      ([auth, lang]) => {
        localStorage.setItem('app-settings', JSON.stringify({ shrinkSideMenu: true, locale: lang }));
        if (auth) localStorage.setItem('auth', auth);
      },
      [
        session
          ? JSON.stringify({
              accessToken: session.accessToken,
              refreshToken: session.refreshToken,
              userId: session.user.id,
            })
          : '',
        locale,
      ] as const,
    );
    return context;
  }

  /** Every script the page fetched: path and body. */
  function watchScripts(page: Page): Map<string, string> {
    const scripts = new Map<string, string>();
    page.on('response', async (res) => {
      const u = new URL(res.url());
      if (u.origin !== server.url || !u.pathname.endsWith('.js')) return;
      scripts.set(u.pathname, '');
      scripts.set(u.pathname, await res.text().catch(() => ''));
    });
    return scripts;
  }

  const groupsOf = (scripts: Map<string, string>) =>
    [...scripts.keys()]
      .map((p) => p.match(/\/i18n-(\w+)-(\w+)-/))
      .filter((m) => m !== null)
      // The base chunk holds several groups (localeChunks.ts).
      .flatMap((m) =>
        (m[2] === 'base' ? BASE_CHUNK_GROUPS : [m[2]]).map((group) => ({ locale: m[1], group })),
      );

  for (const locale of ['ru', 'en'] as const)
    it(`every route fetches only its own ${locale} dictionary groups, and only /project the canvas library`, async () => {
      for (const route of ROUTES) {
        const context = await signedInContext(route.public ? null : admin, locale);
        const page = await context.newPage();
        const scripts = watchScripts(page);
        const url =
          route.path === '/project'
            ? `/project?pid=${pid}`
            : route.path === '/report' || route.path === '/responses'
              ? `${route.path}?pid=${pid}`
              : route.path;
        await page.goto(`${server.url}${url}`, { waitUntil: 'networkidle' });
        // On a busy machine the renderer can be quiet long enough for networkidle before it has
        // run the start-up: wait for the page's heading, then for the network again.
        await page.locator('h1').first().waitFor();
        await page.waitForLoadState('networkidle');
        await page.waitForTimeout(200);
        // The page itself, not a redirect to sign in or an error.
        expect(new URL(page.url()).pathname, route.path).toBe(route.path);
        const groups = groupsOf(scripts);
        expect(
          groups.filter((g) => g.locale !== locale),
          `${route.path} fetched another language's texts`,
        ).toEqual([]);
        // The base chunk's groups on every page (the start-up's among them), and no other group
        // than the route's own.
        const expected = [...new Set([...BOOT_GROUPS, ...BASE_CHUNK_GROUPS, ...routeGroups(route)])].sort();
        expect(groups.map((g) => g.group).sort(), route.path).toEqual(expected);
        const withCanvas = () => [...scripts].filter(([, body]) => CYTOSCAPE.test(body)).map(([p]) => p);
        // The editor asks for the canvas once its outline is painted and the page is idle: on a
        // slow machine that can come after the network first looked idle.
        if (route.path === '/project')
          await expect
            .poll(() => withCanvas().length, { message: '/project draws the canvas' })
            .toBeGreaterThan(0);
        else expect(withCanvas(), `${route.path} fetched the canvas library`).toEqual([]);
        const withCharts = [...scripts].filter(([, body]) => UPLOT.test(body)).map(([p]) => p);
        if (route.path !== '/report') expect(withCharts, `${route.path} fetched uPlot`).toEqual([]);
        await context.close();
      }
      // Every route of the app in turn, each to network idle: 30 s here, more on a slower machine.
    }, 180_000);

  it("opening a page straight paints the page itself first, never the app's loading screen before it", async () => {
    // React's loading screen (a progress bar in #root) replaced by the page a moment later was the
    // first paint Lighthouse counted, and the page came at least 300 ms after it (main.tsx).
    for (const [session, path] of [
      [admin, '/projects'],
      [researcher, `/report?pid=${pid}`],
      [null, '/login'],
    ] as const) {
      const context = await signedInContext(session, 'en');
      await context.addInitScript(() => {
        const w = window as unknown as { __loadingShown?: boolean };
        new MutationObserver(() => {
          if (document.querySelector('#root [role="progressbar"]') && !document.querySelector('h1'))
            w.__loadingShown = true;
        }).observe(document, { childList: true, subtree: true });
      });
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(`${server.url}${path}`);
      await page.locator('h1').first().waitFor();
      expect(
        await page.evaluate(() => (window as { __loadingShown?: boolean }).__loadingShown ?? false),
        path,
      ).toBe(false);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('the signed-out pages load neither xstate nor the toast library; the sign-in actor loads once the form is touched', async () => {
    for (const route of ROUTES.filter((r) => r.public)) {
      const context = await signedInContext(null, 'en');
      const page = await context.newPage();
      const errors = watchErrors(page);
      const scripts = watchScripts(page);
      await page.goto(`${server.url}${route.path}`, { waitUntil: 'networkidle' });
      await page.locator('h1').first().waitFor();
      await page.waitForTimeout(200);
      expect(new URL(page.url()).pathname, route.path).toBe(route.path);
      const bodies = [...scripts];
      expect(
        bodies.filter(([, body]) => XSTATE.test(body)).map(([p]) => p),
        `${route.path} fetched xstate`,
      ).toEqual([]);
      expect(
        bodies.filter(([, body]) => TOAST_LIBRARY.test(body)).map(([p]) => p),
        `${route.path} fetched react-hot-toast`,
      ).toEqual([]);
      expect(
        [...scripts.keys()].filter((p) => /\/(modal|guide|Toasts)-/.test(p)),
        `${route.path} fetched a signed-in host`,
      ).toEqual([]);
      if (route.path === '/login') {
        // Touching the form loads the sign-in actor, before the visitor sends it.
        await page.getByLabel('Email').focus();
        await expect
          .poll(() => [...scripts].some(([, body]) => XSTATE.test(body)), { timeout: 30_000 })
          .toBe(true);
      }
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it("the page's HTML asks for the start-up's own script (no facade in front of it) and writes its favicon in", async () => {
    const html = await (await fetch(`${server.url}/projects`)).text();
    const scripts = [...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts, 'one script').toHaveLength(1);
    const entry = await (await fetch(server.url + scripts[0])).text();
    // React's renderer is in it: the start-up runs from the first script that arrives.
    expect(entry.length, 'the whole start-up, not an import of it').toBeGreaterThan(100_000);
    expect(entry).toMatch(/createRoot/);
    const favicon = html.match(/<link rel="icon" href="([^"]+)"/)?.[1] ?? '';
    expect(favicon.startsWith('data:image/svg+xml,'), 'the favicon is in the page').toBe(true);
  });

  /** Holds back every script whose body matches; answers the release. */
  async function holdBack(
    page: Page,
    marker: RegExp,
  ): Promise<{ held: string[]; release: () => Promise<void> }> {
    const held: string[] = [];
    const waiting: (() => Promise<void>)[] = [];
    await page.route('**/assets/*.js', async (route: Route) => {
      try {
        const res = await route.fetch();
        const body = await res.text();
        if (marker.test(body)) {
          held.push(new URL(route.request().url()).pathname);
          waiting.push(() => route.fulfill({ response: res, body }));
        } else await route.fulfill({ response: res, body });
      } catch (err) {
        // A script asked for late (the service worker's, once the page is idle) may still be on its
        // way when the test closes the page: its response is disposed before the page says closed.
        if (!page.isClosed() && !/disposed|closed/i.test(String(err))) throw err;
      }
    });
    return { held, release: async () => void (await Promise.all(waiting.map((w) => w()))) };
  }

  it("the editor's outline opens and selects a question while the canvas library is held back", async () => {
    const context = await signedInContext(researcher, 'en');
    const page = await context.newPage();
    const errors = watchErrors(page);
    const { held, release } = await holdBack(page, CYTOSCAPE);
    await page.goto(`${server.url}/project?pid=${pid}`);
    const question = page.locator('[role="treeitem"][data-kind="question"]').first();
    await question.click();
    await page.locator('[data-fields-for]').first().waitFor();
    // Asked for once the outline has been painted, which may follow the click.
    await expect
      .poll(() => held.length, { message: 'the canvas chunk was asked for and is still held' })
      .toBeGreaterThan(0);
    await release();
    await page.locator('[role="region"][data-ready]').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the editor asks for the canvas library only once its outline has been painted, opened first and opened again', async () => {
    const context = await signedInContext(researcher, 'en');
    // In the page before the app: the first task after the frame that drew the first outline row.
    await context.addInitScript(() => {
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
    });
    const page = await context.newPage();
    const errors = watchErrors(page);
    const scripts = watchScripts(page);
    // From the server (nothing kept here yet), then from the copy this browser kept, the chunk
    // from the HTTP cache.
    for (const visit of ['first', 'again']) {
      await page.goto(`${server.url}/project?pid=${pid}`);
      await page.locator('[role="region"][data-ready]').waitFor();
      const canvas = [...scripts].filter(([, body]) => CYTOSCAPE.test(body)).map(([p]) => p);
      expect(canvas.length, 'the canvas library was fetched').toBeGreaterThan(0);
      const { painted, asked } = await page.evaluate(
        (paths) => ({
          painted: (window as unknown as { __outlinePainted?: number }).__outlinePainted ?? NaN,
          asked: performance
            .getEntriesByType('resource')
            .filter((e) => paths.includes(new URL(e.name).pathname))
            .map((e) => e.startTime),
        }),
        canvas,
      );
      expect(Number.isFinite(painted), `${visit}: the outline was painted`).toBe(true);
      expect(asked.length, `${visit}: the canvas chunk's request is in the page's timings`).toBeGreaterThan(
        0,
      );
      expect(Math.min(...asked), `${visit}: asked for after the outline's paint`).toBeGreaterThan(painted);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the report shows its numbers while uPlot's chunk is held back, and draws the charts after", async () => {
    const context = await signedInContext(researcher, 'en');
    const page = await context.newPage();
    const errors = watchErrors(page);
    const { held, release } = await holdBack(page, UPLOT);
    await page.goto(`${server.url}/report?pid=${pid}`);
    await page.getByRole('table', { name: 'Numbers of question 2' }).waitFor();
    expect(await page.locator('[data-chart] canvas').count()).toBe(0);
    // The first chart asks for the chunk once its box is seen, which may follow the numbers.
    await expect
      .poll(() => held.length, { message: 'the chart chunk was asked for and is still held' })
      .toBeGreaterThan(0);
    expect(await page.locator('[data-chart] canvas').count()).toBe(0);
    await release();
    // Charts draw as they come into view; at 720 px the first is under the quality and field cards.
    await page.locator('[data-chart]').first().scrollIntoViewIfNeeded();
    await page.locator('[data-chart] canvas').first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
