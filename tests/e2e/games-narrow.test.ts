import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { axeFull, axeLines, launchBrowser, signIn, startApp } from './helpers';
import type { TestServer } from '../server/helpers';
import { Role } from '../../src/domain/roles';

// The games page on a phone. An empty list: the table is wider than the screen and scrolls in its
// frame, and the "nothing here" line spanning every column used to be centred in the whole table,
// out of sight past the right edge; it stays in the visible part of the frame. A new game's keys:
// the SDK call's example scrolls sideways there and was out of the keyboard's reach (axe's
// scrollable-region-focusable, serious).

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000 });

describe('the games page at 360 px', () => {
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

  it('lets the keyboard reach the SDK call example of a new game’s keys (no axe findings)', async () => {
    const context = await browser.newContext({
      locale: 'en',
      viewport: { width: 360, height: 780 },
      bypassCSP: true,
    });
    const page = await context.newPage();
    await signIn(page, server, issuerEmail);
    await page.goto(`${server.url}/games`);
    await page.getByRole('button', { name: 'Add game' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'New game' }).waitFor();
    await dialog.getByLabel('Name').fill('Star Puzzle');
    await dialog.getByLabel('Genre').selectOption({ label: 'Puzzle' });
    await dialog.getByLabel('Platform').selectOption({ label: 'Android' });
    await dialog.getByLabel('Game URL').fill('https://play.example.com/star-puzzle');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByRole('heading', { name: 'Keys of game “Star Puzzle”' }).waitFor();
    const example = dialog.getByRole('region', { name: 'The game’s SDK connects with this call:' });
    expect(await example.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect(axeLines(await axeFull(page, undefined, '[role=dialog]'))).toEqual([]);
    await context.close();
  });
});
