import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newContext, signIn, startApp, watchErrors } from './helpers';
import type { TestServer } from '../server/helpers';
import { completeContent, insertProject, saveProject } from '../server/content-helpers';
import { Role } from '../../src/domain/roles';

// Defects seen only by looking at the running app: the editor's canvas drawn 0 px tall (cytoscape's
// stylesheet overrode its container's position; on a phone the stacked frame squeezed it to 0 px), and a researcher who typed an administrator's page
// being signed out by the 403 its calls answered.

let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  server = await startApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

it('draws the editor canvas with a real height at 1440 and 360 px', async () => {
  const org = await server.createOrganization('Canvas Size Org');
  const r = await server.as(Role.Researcher, { organizationId: org });
  const pid = await insertProject(server, org, { name: 'Canvas size' });
  expect((await saveProject(server, r, pid, completeContent(false), 0)).status).toBe(200);
  for (const width of [1440, 360]) {
    const ctx = await browser.newContext({ locale: 'en', viewport: { width, height: 900 } });
    const page = await ctx.newPage();
    await signIn(page, server, r.user.email);
    await page.goto(`${server.url}/project?pid=${pid}`);
    await expect
      .poll(() =>
        page.evaluate(() => Math.min(...[...document.querySelectorAll('canvas')].map((c) => c.height))),
      )
      .toBeGreaterThan(100);
    if (width === 360) {
      // With a question open the side panel is long: the stacked frame must not squeeze the canvas
      // to nothing, nor lay its zoom buttons over the panel's tabs.
      await page.setViewportSize({ width, height: 740 });
      await page.locator('[role="treeitem"][data-kind="question"]').first().click();
      await page.getByLabel('Question text').waitFor();
      const canvas = await page.getByRole('region', { name: 'Questionnaire graph' }).boundingBox();
      expect(canvas!.height).toBeGreaterThan(300);
      const zoom = (await page.getByRole('button', { name: 'Fit to screen' }).boundingBox())!;
      const tab = (await page.getByRole('tab', { name: 'Item' }).boundingBox())!;
      expect(zoom.y + zoom.height <= tab.y || tab.y + tab.height <= zoom.y).toBe(true);
    }
    await ctx.close();
  }
});

it('tells a researcher that an administrator page is not for their role, and keeps them signed in', async () => {
  const r = await server.as(Role.Researcher);
  const ctx = await newContext(browser);
  const page = await ctx.newPage();
  await signIn(page, server, r.user.email);
  await page.goto(`${server.url}/calculator`);
  await expect
    .poll(() => page.getByRole('status').textContent())
    .toBe('This page is not available for your role.');
  await page.getByRole('link', { name: 'Go to your profile' }).click();
  await page.waitForURL((u) => u.pathname === '/profile');
  await ctx.close();
});

it('asks nothing for a page the role may not open: a publisher typing /projects', async () => {
  const org = await server.createOrganization('No Projects Org');
  const issuer = await server.as(Role.Issuer, { organizationId: org });
  const ctx = await newContext(browser);
  const page = await ctx.newPage();
  const errors = watchErrors(page);
  await signIn(page, server, issuer.user.email);
  const asked: string[] = [];
  page.on('request', (req) => {
    if (new URL(req.url()).pathname === '/api/v1/service/projects') asked.push(req.url());
  });
  await page.goto(`${server.url}/projects`);
  await expect
    .poll(() => page.getByRole('status').textContent())
    .toBe('This page is not available for your role.');
  expect(asked).toEqual([]);
  expect(errors).toEqual([]);
  await ctx.close();
});

it('gives the keyboard the fields of the item it just moved to, never those of the item it left', async () => {
  // The side panel draws an item's fields a render after the selection (SidePanel): the previous
  // item's fields stay inert until then, and Enter waits for the new ones.
  const org = await server.createOrganization('Fields Follow Org');
  const r = await server.as(Role.Researcher, { organizationId: org });
  const pid = await insertProject(server, org, { name: 'Fields follow' });
  expect((await saveProject(server, r, pid, completeContent(false), 0)).status).toBe(200);
  const ctx = await newContext(browser);
  const page = await ctx.newPage();
  await signIn(page, server, r.user.email);
  await page.goto(`${server.url}/project?pid=${pid}`);
  const rows = page.locator('[role="treeitem"][data-kind="question"]');
  await rows.first().click();
  await page.getByLabel('Question text').waitFor();
  const before = await page.getByLabel('Question text').inputValue();
  // Down and Enter in one go, at machine speed: the fields that take the typing are question 2's.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  // The focused element's value if it is a field of the side panel's item, else its tag.
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLTextAreaElement | null;
      return el?.closest('[data-item-panel]') ? `field=${el.value}` : el?.tagName;
    });
  await expect.poll(focused).toBe('field=Anything else?');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Typed into the second');
  await page.keyboard.press('Tab');
  await expect.poll(() => rows.nth(1).textContent()).toContain('Typed into the second');
  expect(await rows.first().textContent()).toContain(before);
  await ctx.close();
});
