import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS, launchBrowser, newContext, signIn, startApp, watchErrors } from './helpers';
import { startServer, type TestServer } from '../server/helpers';
import { Role } from '../../src/domain/roles';

// The installable PWA (issue 3, part 10): Chromium reports no installability errors, the manifest
// has what an install needs, and once the service worker controls the page a reload of /profile
// with the network off still shows the shell.

describe('installable PWA in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let email: string;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    email = (
      await server.createUser({
        role: Role.Researcher,
        organizationId: await server.createOrganization(),
        fullname: 'Offline Person',
      })
    ).email;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Waits until the service worker is active and controls this page (the first load is not controlled). */
  async function untilControlled(page: Page) {
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    if (!(await page.evaluate(() => !!navigator.serviceWorker.controller))) {
      await page.reload();
      await page.waitForFunction(() => !!navigator.serviceWorker.controller);
    }
  }

  it('has no installability errors and a complete manifest', async () => {
    // A persistent profile: Chromium never offers to install from an incognito context, which is
    // what browser.newContext() gives.
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-pwa-profile-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: CHROMIUM_FLAGS,
      locale: 'en',
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const errors = watchErrors(page);
    await page.goto(`${server.url}/login`);
    await untilControlled(page);
    const cdp = await page.context().newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);

    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.errors).toEqual([]);
    const body = JSON.parse(manifest.data!);
    expect(body).toMatchObject({
      name: 'Бэк-офис опросов',
      short_name: 'Опросы',
      display: 'standalone',
      theme_color: '#4f46e5',
    });
    expect(typeof body.description).toBe('string');
    const icons = body.icons as { src: string; sizes: string; purpose: string }[];
    expect(icons.map((i) => `${i.sizes} ${i.purpose}`).sort()).toEqual([
      '192x192 any',
      '512x512 any',
      '512x512 maskable',
    ]);
    for (const icon of icons) {
      const res = await page.request.get(`${server.url}${icon.src}`);
      expect(res.status(), icon.src).toBe(200);
      expect(res.headers()['content-type']).toBe('image/png');
    }
    const res = await page.request.get(`${server.url}/manifest.webmanifest`);
    expect(res.headers()['content-type']).toContain('application/manifest+json');
    expect(res.headers()['cache-control']).toBe('no-cache');
    expect(errors).toEqual([]);
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  });

  it('reloads /profile with the network off and still shows the shell', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await signIn(page, server, email);
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    await untilControlled(page);
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();

    await context.setOffline(true);
    try {
      expect(
        await page.evaluate(() =>
          fetch('/api/v1/service/app-config').then(
            () => 'online',
            () => 'offline',
          ),
        ),
      ).toBe('offline');
      await page.reload();
      await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
      await page.getByRole('heading', { name: 'Profile' }).waitFor();
      expect(await page.getByText(email).count()).toBe(1);
      await page.getByText('No connection to the server: showing the last saved data.').waitFor();
      // Every page of the shell opens offline: another lazy route comes from the precache too.
      await page
        .getByRole('navigation', { name: 'Main navigation' })
        .getByRole('link', { name: 'Reports' })
        .click();
      await page.waitForURL((u) => u.pathname === '/reports');
      expect(await page.getByRole('heading', { name: 'Page not found' }).count()).toBe(0);
    } finally {
      await context.setOffline(false);
    }
    await context.close();
  });

  it('lets /api through the service worker: an unknown API path still answers JSON 404, not the shell', async () => {
    const page = await (await newContext(browser)).newPage();
    await page.goto(`${server.url}/login`);
    await untilControlled(page);
    const answer = await page.evaluate(async () => {
      const res = await fetch('/api/v1/service/no-such-call');
      return { status: res.status, type: res.headers.get('content-type') };
    });
    expect(answer.status).toBe(404);
    expect(answer.type).toContain('application/json');
    await page.context().close();
  });
  it('offers "update available, reload" when a new version is deployed, and reloads into it', async () => {
    // A private copy of the build, so that "deploying" a new service worker touches no other test.
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-pwa-dist-'));
    fs.cpSync(inject('distDir'), dist, { recursive: true });
    const own = await startServer((c) => {
      c.staticDir = dist;
    });
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      await page.goto(`${own.url}/login`);
      await untilControlled(page);
      const before = await page.evaluate(() => navigator.serviceWorker.controller!.scriptURL);

      fs.appendFileSync(path.join(dist, 'sw.js'), `\n// deployed ${Date.now()}\n`);
      await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r!.update()));
      const toast = page.locator('[data-toast-kind="info"]', {
        hasText: 'A new version of the app is available.',
      });
      await toast.waitFor({ timeout: 20_000 });
      // Nothing changes until the user agrees.
      expect(
        await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => !!r!.waiting)),
      ).toBe(true);

      await Promise.all([page.waitForEvent('load'), toast.getByRole('button', { name: 'Reload' }).click()]);
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      const after = await page.evaluate(() =>
        navigator.serviceWorker
          .getRegistration()
          .then((r) => ({ waiting: !!r!.waiting, active: r!.active!.scriptURL })),
      );
      expect(after).toEqual({ waiting: false, active: before });
      expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
    } finally {
      await context.close();
      await own.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});
