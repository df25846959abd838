import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newContext, signIn, startApp, watchErrors } from './helpers';
import type { TestServer } from '../server/helpers';
import { Role } from '../../src/domain/roles';

// The first dialog of a page load, driven by the keyboard alone. Its code loads on demand and its
// panel comes up a few frames after Headless UI has put focus on the dialog's own element: focus
// used to stay there (not in the first field), and Escape pressed there did not reach the panel's
// handler, so the dialog stayed open while focus fell to the page body. And a dialog that follows
// straight on from another (a new game's form, then its keys) gives focus back to the first one's
// opener: it used to fall to the body.

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000 });

describe('the first dialog of a page load, by keyboard', () => {
  let server: TestServer;
  let browser: Browser;
  let adminEmail: string;
  let issuerEmail: string;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    adminEmail = (await server.createUser({ role: Role.Administrator })).email;
    const org = await server.createOrganization('Pixel Games');
    issuerEmail = (await server.createUser({ role: Role.Issuer, organizationId: org })).email;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Signs in, opens `path` and presses Enter on the button named `opener`, as a keyboard user. */
  async function openByKeyboard(email: string, path: string, opener: string, heading: string) {
    const page = await (await newContext(browser)).newPage();
    const errors = watchErrors(page);
    await signIn(page, server, email);
    await page.goto(`${server.url}${path}`);
    const button = page.getByRole('button', { name: opener });
    await button.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: heading }).waitFor();
    return { page, errors, button, dialog };
  }

  it('starts in the first field, closes on Escape and gives focus back to the opener', async () => {
    const {
      page,
      errors,
      button: invite,
      dialog,
    } = await openByKeyboard(adminEmail, '/researchers', 'Invite', 'Invite a user');
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');

    await page.keyboard.press('Escape');
    await poll(() => dialog.count()).toBe(0);
    // The page is usable again: nothing left inert, and focus is back on the button.
    expect(await page.locator('[inert]').count()).toBe(0);
    await poll(() => invite.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('gives focus back to “Add game” once the new game’s keys, shown after its form, are closed', async () => {
    const {
      page,
      errors,
      button: add,
      dialog,
    } = await openByKeyboard(issuerEmail, '/games', 'Add game', 'New game');
    await dialog.getByLabel('Name').fill('Space Miners');
    await dialog.getByLabel('Genre').selectOption({ index: 1 });
    await dialog.getByLabel('Platform').selectOption({ index: 1 });
    await dialog.getByLabel('Game URL').fill('https://example.com/space-miners');
    await page.keyboard.press('Enter');
    await dialog.getByRole('heading', { name: 'Keys of game “Space Miners”' }).waitFor();
    await page.keyboard.press('Escape');
    await poll(() => dialog.count()).toBe(0);
    await poll(() => add.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(errors).toEqual([]);
  });
});
