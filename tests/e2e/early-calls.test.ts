import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, startApp, watchErrors } from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { insertAnsweredProject } from '../server/content-helpers';
import { Role } from '../../src/domain/roles';
import { sampleContent } from '../../server/reports/sample';

// Issue 25, Lighthouse on the signed-in pages, decided without timing on the real build:
// - the page's first call is started by the start-up, before the page's chunk has arrived, and
//   the page takes it: asked once, not twice (a key that drifted between the start-up and the page
//   would ask twice);
// - the report draws a chart when it comes near the viewport (not every chart at load), and renders
//   every section in the end (they come one per task).

describe('the signed-in pages ask for their data with the start-up', () => {
  let server: TestServer;
  let browser: Browser;
  let researcher: Session;
  let pid: number;
  const questions = sampleContent().questionnaires[0].blocks[0].questions;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    const org = await server.createOrganization('Early Org');
    researcher = await server.as(Role.Researcher, { organizationId: org });
    pid = await insertAnsweredProject(server, org, researcher.user.id, {
      name: 'Early bird',
      seed: 3,
      count: 60,
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function signedIn(viewport = { width: 1280, height: 800 }): Promise<BrowserContext> {
    const context = await browser.newContext({ locale: 'en', viewport, serviceWorkers: 'block' });
    const auth = JSON.stringify({
      accessToken: researcher.accessToken,
      refreshToken: researcher.refreshToken,
      userId: researcher.user.id,
    });
    await context.addInitScript((a) => localStorage.setItem('auth', a), auth);
    return context;
  }

  /** API calls asked and scripts arrived, in order; and the API calls alone. */
  function watch(page: Page) {
    const log: string[] = [];
    const calls: string[] = [];
    page.on('request', (req) => {
      const u = new URL(req.url());
      if (u.origin !== server.url || !u.pathname.startsWith('/api/')) return;
      const call = `${u.pathname.replace('/api/v1/service', '')}${u.search}`;
      calls.push(call);
      log.push(`api ${call}`);
    });
    page.on('requestfinished', (req) => {
      const u = new URL(req.url());
      if (u.origin === server.url && u.pathname.endsWith('.js')) log.push(`done ${u.pathname}`);
    });
    return { log, calls };
  }

  for (const p of [
    {
      name: '/projects',
      url: () => '/projects',
      chunk: /^done \/assets\/ProjectsPage-/,
      call: /^\/projects\?/,
      shown: (page: Page) => page.getByRole('cell', { name: 'Early bird', exact: true }).waitFor(),
    },
    {
      name: '/report',
      url: () => `/report?pid=${pid}`,
      chunk: /^done \/assets\/ReportPage-/,
      call: /^\/project\/stats\/file\?/,
      shown: (page: Page) => page.getByRole('heading', { name: 'Report: Early bird' }).waitFor(),
    },
  ])
    it(`${p.name}: the first call starts before the page's chunk has arrived, and is asked once`, async () => {
      const context = await signedIn();
      const page = await context.newPage();
      const errors = watchErrors(page);
      const { log, calls } = watch(page);
      await page.goto(server.url + p.url());
      await p.shown(page);
      await page.waitForLoadState('networkidle');
      const asked = log.findIndex((l) => l.startsWith('api ') && p.call.test(l.slice(4)));
      const chunkDone = log.findIndex((l) => p.chunk.test(l));
      expect(asked, 'the call was made').toBeGreaterThanOrEqual(0);
      expect(chunkDone, "the page's chunk arrived").toBeGreaterThanOrEqual(0);
      expect(asked, "asked before the page's chunk had arrived").toBeLessThan(chunkDone);
      expect(
        calls.filter((c) => p.call.test(c)),
        'the first call, once',
      ).toHaveLength(1);
      expect(
        calls.filter((c) => c.startsWith('/app-config')),
        'the public settings, once',
      ).toHaveLength(1);
      expect(errors).toEqual([]);
      await context.close();
    });

  it("the stored sign-in's check starts before the sign-in actor's chunk has arrived, and is asked once", async () => {
    const context = await signedIn();
    const page = await context.newPage();
    const errors = watchErrors(page);
    const { log, calls } = watch(page);
    await page.goto(`${server.url}/projects`);
    await page.getByRole('cell', { name: 'Early bird', exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    const asked = log.findIndex((l) => l === `api /user?uid=${researcher.user.id}`);
    const chunkDone = log.findIndex((l) => /^done \/assets\/signin-/.test(l));
    expect(asked, 'the check was made').toBeGreaterThanOrEqual(0);
    expect(chunkDone, "the sign-in actor's chunk arrived").toBeGreaterThanOrEqual(0);
    expect(asked, "asked before the actor's chunk had arrived").toBeLessThan(chunkDone);
    expect(calls.filter((c) => c.startsWith('/user?'))).toEqual([`/user?uid=${researcher.user.id}`]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the service worker's chunk is asked for only after the page has painted, however late its dictionary comes", async () => {
    const context = await signedIn();
    const page = await context.newPage();
    const errors = watchErrors(page);
    // The page's dictionary chunk held back 2.5 s (a plain import, which does not delay the document's
    // load event): the document has loaded and the browser is idle meanwhile.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(/\/assets\/i18n-en-projects-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    // A slow phone's processor: the page's first render takes long enough for the browser to be idle
    // between its slices (it is rendered as a transition).
    await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: 6 });
    const pwaAskedAt = () =>
      page.evaluate(
        () =>
          performance
            .getEntriesByType('resource')
            .find((e) => /\/assets\/pwa-[^/]*\.js$/.test(new URL(e.name).pathname))?.startTime ?? null,
      );
    await page.goto(`${server.url}/projects`);
    await page.waitForTimeout(2500);
    expect(await pwaAskedAt(), 'not asked while the page is still coming').toBeNull();
    release();
    await page.getByRole('cell', { name: 'Early bird', exact: true }).waitFor();
    await expect.poll(pwaAskedAt, { timeout: 30_000 }).not.toBeNull();
    // The page paints whole at once (the boot screen before it is not contentful): its first
    // contentful paint is the page's.
    const paintedAt = await page.evaluate(
      () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
    );
    expect(paintedAt, 'the page was painted').toBeGreaterThan(0);
    expect(await pwaAskedAt(), 'asked after the paint').toBeGreaterThan(paintedAt!);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('/report draws the charts near the viewport first, the others when scrolled to, and shows every section', async () => {
    // Tall enough for the first chart under the counters, the quality and field cards (issue 31).
    const context = await signedIn({ width: 1280, height: 900 });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/report?pid=${pid}`);
    // Every question's card comes, one section per task.
    await expect
      .poll(() => page.locator('#report h3, #report h2').count(), { timeout: 30_000 })
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
