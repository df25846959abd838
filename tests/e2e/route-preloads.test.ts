import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, startApp, watchErrors } from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { insertProject } from '../server/content-helpers';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import { writeContent } from '../../server/repos/content';
import { insertRespondents, sampleContent, sampleRespondents } from '../../server/reports/sample';

// Issue 25, Lighthouse on the signed-in pages, decided without timing on the real build:
// - the HTML of a route names (modulepreload) every chunk its start-up fetches before the page's
//   content shows, so none waits for the start-up script to run first;
// - the page's first call is started by the start-up and taken by the page: one call, not two;
// - the report draws a chart when it comes near the viewport (not every chart at load), and renders
//   every section in the end.

/** Loaded after the first paint or with the first chart, on purpose (main.tsx, Chart.tsx). */
const LATER = /\/assets\/(pwa|Toasts|plot|uplotKit|DaysChart|workbox-window)[-.]/;

describe('the signed-in pages start without waiting on themselves', () => {
  let server: TestServer;
  let browser: Browser;
  let researcher: Session;
  let pid: number;
  const questions = sampleContent().questionnaires[0].blocks[0].questions;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    const org = await server.createOrganization('Preload Org');
    researcher = await server.as(Role.Researcher, { organizationId: org });
    pid = await insertProject(server, org, { status: ProjectStatus.OnRotation, name: 'Preloaded' });
    const content = sampleContent();
    await writeContent(server.app.db, pid, 0, content, researcher.user.id);
    await insertRespondents(
      server.app.db,
      pid,
      content.questionnaires[0].id,
      sampleRespondents(3, 60, content),
    );
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function signedIn(viewport = { width: 1280, height: 800 }): Promise<BrowserContext> {
    const context = await browser.newContext({ locale: 'en', viewport, serviceWorkers: 'block' });
    await context.addInitScript(
      (auth) => localStorage.setItem('auth', auth),
      [
        JSON.stringify({
          accessToken: researcher.accessToken,
          refreshToken: researcher.refreshToken,
          userId: researcher.user.id,
        }),
      ][0],
    );
    return context;
  }

  /** Scripts and API calls in the order the page asked for them. */
  function watch(page: Page) {
    const scripts: string[] = [];
    const calls: string[] = [];
    page.on('request', (req) => {
      const u = new URL(req.url());
      if (u.origin !== server.url) return;
      if (u.pathname.endsWith('.js')) scripts.push(u.pathname);
      if (u.pathname.startsWith('/api/'))
        calls.push(`${u.pathname.replace('/api/v1/service', '')}${u.search}`);
    });
    return { scripts, calls };
  }

  /** What the HTML names: the start-up script and every modulepreload. */
  async function named(path: string): Promise<Set<string>> {
    const html = await (await fetch(server.url + path, { headers: { 'accept-language': 'en' } })).text();
    return new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]));
  }

  for (const { path, shown } of [
    {
      path: '/projects',
      shown: (page: Page) => page.getByRole('cell', { name: 'Preloaded', exact: true }).waitFor(),
    },
    {
      path: '/report?pid=',
      shown: (page: Page) => page.getByRole('heading', { name: 'Report: Preloaded' }).waitFor(),
    },
  ])
    it(`${path}: the HTML names every chunk fetched before the page shows, and the first call is asked once`, async () => {
      const url = path.endsWith('=') ? `${path}${pid}` : path;
      const inHtml = await named(url);
      expect(inHtml.size, 'the route names more than the start-up').toBeGreaterThan(8);
      const context = await signedIn();
      const page = await context.newPage();
      const errors = watchErrors(page);
      const { scripts, calls } = watch(page);
      await page.goto(server.url + url);
      await shown(page);
      const before = scripts.filter((s) => !LATER.test(s));
      expect(
        before.filter((s) => !inHtml.has(s)),
        'fetched by the start-up but not named in the HTML',
      ).toEqual([]);
      await page.waitForLoadState('networkidle');
      const first = path === '/projects' ? /^\/projects\?/ : /^\/project\/stats\/file\?/;
      expect(
        calls.filter((c) => first.test(c)),
        'the first call, once',
      ).toHaveLength(1);
      expect(
        calls.filter((c) => c.startsWith('/app-config')),
        'the public settings, once',
      ).toHaveLength(1);
      expect(errors).toEqual([]);
      await context.close();
    });

  it('/report draws the charts near the viewport first, the others when scrolled to, and shows every section', async () => {
    const context = await signedIn({ width: 1280, height: 700 });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/report?pid=${pid}`);
    // Every question's card comes, one section per task.
    await expect
      .poll(() => page.locator('#report h3, #report h2').count(), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(questions.length);
    await page.locator('[data-chart] canvas').first().waitFor();
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(300);
    const boxes = await page.locator('[data-chart]').count();
    const drawnAtLoad = await page.locator('[data-chart] canvas').count();
    expect(boxes).toBeGreaterThan(4);
    expect(drawnAtLoad, 'charts far below the fold wait').toBeLessThan(boxes);
    // Scrolled through, every chart is drawn.
    for (const box of await page.locator('[data-chart]').all()) await box.scrollIntoViewIfNeeded();
    await expect.poll(() => page.locator('[data-chart] canvas').count()).toBe(boxes);
    expect(errors).toEqual([]);
    await context.close();
  });
});
