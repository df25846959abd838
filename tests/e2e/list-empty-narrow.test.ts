import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, signIn, startApp } from './helpers';
import type { TestServer } from '../server/helpers';
import { Role } from '../../src/domain/roles';

// An empty list on a phone: the table is wider than the screen and scrolls in its frame, and the
// "nothing here" line spanning every column used to be centred in the whole table, out of sight
// past the right edge. It stays in the visible part of the frame.

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000 });

describe('an empty list at 360 px', () => {
  let server: TestServer;
  let browser: Browser;
  let issuerEmail: string;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    const org = await server.createOrganization('Pixel Games');
    issuerEmail = (await server.createUser({ role: Role.Issuer, organizationId: org })).email;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows its message on screen, not past the table frame’s right edge', async () => {
    const context = await browser.newContext({ locale: 'en', viewport: { width: 360, height: 780 } });
    const page = await context.newPage();
    await signIn(page, server, issuerEmail);
    await page.goto(`${server.url}/games`);
    const empty = page.getByText('No games yet');
    await empty.waitFor();
    // The table really is wider than the screen (else this proves nothing).
    expect(await page.locator('table').evaluate((t) => t.scrollWidth)).toBeGreaterThan(360);
    await poll(async () => {
      const box = await empty.boundingBox();
      return box !== null && box.x >= 0 && box.x + box.width <= 360;
    }).toBe(true);
    await context.close();
  });
});
