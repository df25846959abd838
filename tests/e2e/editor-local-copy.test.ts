import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Route } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { launchBrowser, newContext, signIn, startApp, watchErrors } from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { completeContent, getProject, insertProject, saveProject } from '../server/content-helpers';
import { buildApp } from '../../server/app';
import { Role } from '../../src/domain/roles';

// Issue 25, part 3, in Chromium: a project opened before on this device opens from its local copy
// without waiting for the server. While the server's answer is held back the outline is there and
// the page says it is checking; with the server stopped it says it is offline, an edit made then
// is saved once the server is started again (same data, same port). Issue 34: the same in a new tab
// of the same browser (the user's reopen), GET /project held through CDP with the HTTP cache on.

describe('the editor opening from its local copy', () => {
  let server: TestServer;
  let browser: Browser;
  let researcher: Session;
  let pid: number;
  let restarted: FastifyInstance | null = null;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    const org = await server.createOrganization('Local Org');
    researcher = await server.as(Role.Researcher, { organizationId: org });
    pid = await insertProject(server, org, { name: 'Kept here' });
    const saved = await saveProject(server, researcher, pid, completeContent(), 0);
    expect(saved.status).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
    await restarted?.close();
    await server?.close().catch(() => {});
  });

  const outlineRow = (page: Page, n: number) =>
    page.locator('[role="treeitem"][data-kind="question"]').nth(n - 1);
  const isProjectCall = (url: string) => /\/api\/v1\/service\/project\?pid=/.test(url);
  // The copy is written by the autosave (AUTOSAVE_MS after the opening): wait until it is there.
  const draftKept = (page: Page, id: number) =>
    expect
      .poll(() =>
        page.evaluate(
          (key) =>
            new Promise<boolean>((done) => {
              const open = indexedDB.open('survey-backoffice');
              open.onerror = () => done(false);
              open.onsuccess = () => {
                const get = open.result.transaction('drafts').objectStore('drafts').get(key);
                get.onsuccess = () => done(get.result !== undefined);
                get.onerror = () => done(false);
              };
            }),
          id,
        ),
      )
      .toBe(true);

  it('renders the outline before the server answers, marked as checking, then takes the answer', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, server, researcher.user.email);
    // The first opening waits for the server and leaves the copy in this browser.
    await page.goto(`${server.url}/project?pid=${pid}`);
    await outlineRow(page, 1).waitFor();
    await page.locator('[data-source="server"]').waitFor();
    await draftKept(page, pid);

    // Reopen with every call to the server held back (a slow server: the sign-in's check of the
    // session too): the outline shows from the local copy meanwhile.
    const held: Route[] = [];
    await page.route(
      (u) => u.pathname.startsWith('/api/'),
      (route) => void held.push(route),
    );
    await page.reload();
    await outlineRow(page, 1).waitFor();
    await page.locator('[data-source="local"]').waitFor();
    expect(await page.getByText('checking the server for changes').count()).toBe(1);
    // Read by the app's first script with IndexedDB itself (src/db/earlyRead.ts), beside the
    // start-up's chunks, not after the editor's chunk and Dexie (the reopen's budget, issue 25).
    expect(
      await page.evaluate(() => performance.getEntriesByName('editor:local-read').length),
      'the local copy was read by the first script',
    ).toBe(1);
    expect(
      held.some((r) => isProjectCall(r.request().url())),
      'the project was asked for',
    ).toBe(true);
    expect(
      held.some((r) => /\/api\/v1\/service\/user\?uid=/.test(r.request().url())),
      'the session is being checked',
    ).toBe(true);
    for (const r of held) await r.continue();
    await page.locator('[data-source="server"]').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('reopened in a new tab of the same browser with GET /project held back: the local copy, "checking the server for changes" until the answer', async () => {
    const context = await newContext(browser);
    // What the opening picture was while it was shown, and when the live outline's first row came.
    await context.addInitScript(() => {
      const w = window as unknown as { __picture?: Record<string, unknown>; __liveRow?: number };
      new MutationObserver(() => {
        const picture = document.getElementById('editor-picture');
        if (picture && !w.__picture)
          w.__picture = {
            at: performance.now(),
            inert: picture.inert,
            hidden: picture.getAttribute('aria-hidden'),
            rows: picture.querySelectorAll('[data-picture-kind="question"]').length,
            note: picture.querySelector('[data-picture-source="local"]')?.textContent,
            // None of the live page's names: ids, roles, data attributes the app looks for.
            named: picture.querySelectorAll('[id], [role], [data-kind], [data-source]').length,
          };
        const live = document.querySelector('[role="treeitem"][data-kind="question"]');
        if (live && w.__liveRow === undefined) {
          w.__liveRow = performance.now();
          if (picture) w.__picture = { ...w.__picture, besideLive: true };
        }
      }).observe(document, { childList: true, subtree: true });
    });
    const first = await context.newPage();
    await signIn(first, server, researcher.user.email);
    await first.goto(`${server.url}/project?pid=${pid}`);
    await outlineRow(first, 1).waitFor();
    await first.locator('[data-source="server"]').waitFor();
    await draftKept(first, pid);
    await first.close({ runBeforeUnload: true });

    // A new tab of the same profile; GET /project alone is held, through CDP so that the HTTP
    // cache stays on (Playwright's page.route would make it a first visit).
    const page = await context.newPage();
    const errors = watchErrors(page);
    const refused: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) refused.push(m.text());
    });
    const cdp = await context.newCDPSession(page);
    const paused: string[] = [];
    cdp.on('Fetch.requestPaused', ({ requestId }) => void paused.push(requestId));
    await cdp.send('Fetch.enable', {
      patterns: [{ urlPattern: '*/api/v1/service/project?pid=*', requestStage: 'Request' }],
    });
    await page.goto(`${server.url}/project?pid=${pid}`);
    // The live outline (the opening picture is hidden from the accessibility tree).
    await page.getByRole('treeitem').first().waitFor();
    await page.locator('[data-source="local"]').waitFor();
    expect(await page.getByText('checking the server for changes').count()).toBe(1);
    expect(paused.length, 'the project was asked for and is still held').toBe(1);
    // The head start showed the editor's opening picture first (db/openingPicture.ts): the
    // outline's rows and "checking the server for changes", inert, hidden from assistive technology,
    // with none of the live page's ids, and gone in the commit that drew the live outline.
    const shown = await page.evaluate(() => {
      const w = window as unknown as { __picture?: Record<string, unknown>; __liveRow?: number };
      return {
        ...w.__picture,
        liveRow: w.__liveRow,
        liveRows: document.querySelectorAll('[role="treeitem"][data-kind="question"]').length,
        still: !!document.getElementById('editor-picture'),
      } as Record<string, unknown>;
    });
    expect(shown).toMatchObject({
      inert: true,
      hidden: 'true',
      note: 'Opened the copy kept in this browser: checking the server for changes…',
      named: 0,
      still: false,
    });
    expect(shown.rows, "the picture's question rows are the outline's").toBe(shown.liveRows);
    expect(shown.rows).toBeGreaterThan(0);
    expect(shown.besideLive, 'never shown beside the live outline').toBeUndefined();
    expect(shown.at as number).toBeLessThan(shown.liveRow as number);
    expect(await page.evaluate(() => performance.getEntriesByName('editor:picture').length)).toBe(1);
    // Still the local copy a moment later: nothing but the server's answer ends the check.
    await page.waitForTimeout(500);
    expect(await page.locator('[data-source="local"]').count()).toBe(1);
    // The copy was read by the HTML's own script, which the page's CSP let run (headStart.ts).
    expect(
      await page.evaluate(() => performance.getEntriesByName('editor:head-start').length),
      "the editor's head start ran",
    ).toBe(1);
    // It also asked for the dictionary of the editor's first render, in the page's language only
    // (the start-up asked for it only once its own script had been evaluated).
    const preloaded = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((l) => l.href),
    );
    for (const group of ['base', 'editor', 'panels'])
      expect(
        preloaded.some((href) => href.includes(`/i18n-en-${group}-`)),
        `the head start asked for the ${group} dictionary`,
      ).toBe(true);
    expect(preloaded.filter((href) => href.includes('/i18n-ru-'))).toEqual([]);
    for (const requestId of paused) await cdp.send('Fetch.continueRequest', { requestId });
    await page.locator('[data-source="server"]').waitFor();
    expect(await page.getByText('checking the server for changes').count()).toBe(0);
    expect(errors).toEqual([]);
    expect(refused).toEqual([]);
    await context.close();
  });

  it('with the local copy read before the editor has loaded, the editor starts opened: its first render is the outline', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, server, researcher.user.email);
    await page.goto(`${server.url}/project?pid=${pid}`);
    await outlineRow(page, 1).waitFor();
    await page.locator('[data-source="server"]').waitFor();
    await draftKept(page, pid);

    // The editor's dictionary group is held back (a slow network): the first script's read of the
    // copy is done long before the editor renders, which then renders the outline at once instead
    // of a loading frame first (prefetch.ts takeOpenedLocally). The server is held back too.
    const held: Route[] = [];
    await page.route(
      (u) => u.pathname.startsWith('/api/'),
      (route) => void held.push(route),
    );
    await page.route(
      (u) => /\/assets\/i18n-en-editor-[^/]*\.js$/.test(u.pathname),
      (route) => void setTimeout(() => void route.continue(), 800),
    );
    await page.reload();
    await outlineRow(page, 1).waitFor();
    await page.locator('[data-source="local"]').waitFor();
    expect(
      await page.evaluate(() => performance.getEntriesByName('editor:opened-at-start').length),
      'the editor started with the copy opened',
    ).toBe(1);
    // The server's answer is still taken as before.
    for (const r of held) await r.continue();
    await page.locator('[data-source="server"]').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('with the server stopped, opens from the local copy and says it is offline; started again, an edit made meanwhile saves', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await signIn(page, server, researcher.user.email);
    await page.goto(`${server.url}/project?pid=${pid}`);
    await outlineRow(page, 1).waitFor();
    await page.locator('[data-source]').waitFor();
    await draftKept(page, pid);
    // To the projects list in the app (its code stays loaded), then the server goes away.
    await page.getByRole('button', { name: 'Return to projects list' }).click();
    await page.getByRole('link', { name: 'Open' }).first().waitFor();
    const { config } = server;
    const port = Number(new URL(server.url).port);
    await server.app.close();

    await page.getByRole('link', { name: 'Open' }).first().click();
    await outlineRow(page, 1).waitFor();
    await page.locator('[data-source="offline"]').waitFor();
    await expect
      .poll(() => page.locator('[data-source="offline"]').textContent())
      .toContain('No connection to the server');

    // An edit while the server is gone, and a save that waits for it.
    await outlineRow(page, 1).dblclick();
    await page.getByRole('textbox', { name: /New name/ }).fill('Edited while offline');
    await page.getByRole('textbox', { name: /New name/ }).press('Enter');
    await page.getByRole('button', { name: 'Save project' }).click();

    // The server again, on the same data and port: the save goes through on its own.
    restarted = await buildApp(config, { logger: false });
    await restarted.listen({ port, host: '127.0.0.1' });
    await expect
      .poll(
        async () => {
          const res = await getProject(server, researcher, pid);
          return JSON.stringify(res.body?.content ?? null);
        },
        { timeout: 40_000, interval: 500 },
      )
      .toContain('Edited while offline');
    await context.close();
  });
});
