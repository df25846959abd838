import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, signIn, startApp, watchErrors } from './helpers';
import { API, type TestServer } from '../server/helpers';
import { Role } from '../../src/domain/roles';

// Games end to end in Chromium: an Issuer registers a game and gets its key and token once; a
// script plays the game's SDK and calls POST /games/sdk with them; the open page shows "SDK
// connected" by itself. An Administrator then moves the game along its statuses, and another
// organization's issuer never sees it.

describe('games in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let issuerEmail: string;
  let adminEmail: string;
  let otherIssuerEmail: string;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    const org = await server.createOrganization('Pixel Forge');
    issuerEmail = (
      await server.createUser({ role: Role.Issuer, organizationId: org, email: 'ivan.issuer@example.com' })
    ).email;
    otherIssuerEmail = (
      await server.createUser({
        role: Role.Issuer,
        organizationId: await server.createOrganization('Other Studio'),
        email: 'other@example.com',
      })
    ).email;
    adminEmail = (await server.createUser({ role: Role.Administrator, email: 'admin@example.com' })).email;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const sdkCall = (body: unknown) =>
    fetch(`${server.url}${API}/games/sdk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  async function registerGame(page: Page, name: string) {
    await page.getByRole('button', { name: 'Add game' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'New game' }).waitFor();
    // The form checks itself with the spec's messages before calling the server.
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => dialog.getByText('This field is required').count()).toBeGreaterThanOrEqual(4);
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Genre').selectOption({ label: 'Puzzle' });
    await dialog.getByLabel('Platform').selectOption({ label: 'Android' });
    await dialog.getByLabel('Game URL').fill('not a url');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Enter a valid url').waitFor();
    await dialog.getByLabel('Game URL').fill('https://play.example.com/star-puzzle');
    expect(await dialog.getByLabel('Currency').locator('option:checked').textContent()).toBe(
      'RUB — Russian Ruble',
    );
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: `Keys of game “${name}”` }).waitFor();
  }

  it('registers a game, shows its secrets once, and sees the SDK connect without a reload', async () => {
    const page = await (await newContext(browser)).newPage();
    const errors = watchErrors(page);
    await signIn(page, server, issuerEmail);
    await page.goto(`${server.url}/games`);
    await page.getByRole('heading', { name: 'Games' }).waitFor();
    await page.getByText('No games yet').waitFor();

    // A genre the list lacks is added from the form itself.
    await page.getByRole('button', { name: 'Add game' }).click();
    let dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'New genre' }).click();
    await dialog.getByLabel('Name of the new genre').fill('puzzle');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.getByText('This genre already exists').waitFor();
    await dialog.getByLabel('Name of the new genre').fill('Tile matching');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect
      .poll(() => dialog.getByLabel('Genre').locator('option:checked').textContent())
      .toBe('Tile matching');
    // An issuer may not add platforms (games.create-platform is the Administrator's).
    expect(await dialog.getByRole('button', { name: 'New platform' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    await registerGame(page, 'Star Puzzle');
    dialog = page.getByRole('dialog');
    await dialog.getByText('they are shown in full only once').waitFor();
    const apiKey = await dialog.getByLabel('API key', { exact: true }).inputValue();
    const token = await dialog.getByLabel('Token', { exact: true }).inputValue();
    expect(apiKey).toMatch(/^gk_/);
    expect(token).toMatch(/^gt_/);
    expect(await dialog.getByRole('button', { name: 'Copy: API key' }).count()).toBe(1);
    const status = dialog.getByTestId('connection-status');
    expect(await status.textContent()).toBe('Awaiting SDK connection');
    await dialog.getByText('Waiting for the game’s SDK').waitFor();

    // The game's SDK, played by this script: wrong secrets change nothing, right ones connect.
    expect((await sdkCall({ apiKey, token: `${token}x` })).status).toBe(401);
    const ok = await sdkCall({ apiKey, token });
    expect(ok.status).toBe(200);
    expect((await ok.json()).statusId).toBe(2);
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toBe('SDK connected');
    await dialog.getByRole('button', { name: 'Done' }).click();

    const row = page.getByRole('row', { name: /Star Puzzle/ });
    await expect.poll(() => row.textContent()).toContain('SDK connected');
    expect(await row.textContent()).toContain('Pixel Forge');
    expect(await row.textContent()).toContain('Android');

    // Afterwards the secrets are only masked, with nothing to copy.
    await page.getByRole('button', { name: 'Connection of game “Star Puzzle”' }).click();
    dialog = page.getByRole('dialog');
    const masked = await dialog.getByLabel('API key', { exact: true }).inputValue();
    expect(masked).toContain('••••••••');
    expect(masked).not.toBe(apiKey);
    expect(masked.startsWith(apiKey.slice(0, 7))).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Copy: API key' }).count()).toBe(0);
    expect(await page.content()).not.toContain(token);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The same page after a reload: the status came from the server, not from the page's memory.
    await page.reload();
    await expect
      .poll(() => page.getByRole('row', { name: /Star Puzzle/ }).textContent())
      .toContain('SDK connected');
    expect(errors).toEqual([]);
  });

  it('lets an issuer issue new keys: the old ones stop working and the game waits for the SDK again', async () => {
    const page = await (await newContext(browser)).newPage();
    await signIn(page, server, issuerEmail);
    await page.goto(`${server.url}/games`);
    await registerGame(page, 'Rekey Racer');
    let dialog = page.getByRole('dialog');
    const oldSecrets = {
      apiKey: await dialog.getByLabel('API key', { exact: true }).inputValue(),
      token: await dialog.getByLabel('Token', { exact: true }).inputValue(),
    };
    expect((await sdkCall(oldSecrets)).status).toBe(200);
    await expect
      .poll(() => dialog.getByTestId('connection-status').textContent(), { timeout: 30_000 })
      .toBe('SDK connected');
    await dialog.getByRole('button', { name: 'Issue new keys' }).click();
    await dialog.getByText('The old API key and token stop working at once.').waitFor();
    await dialog.getByRole('button', { name: 'Issue new keys' }).click();
    await page.getByText('New keys of “Rekey Racer” issued').waitFor();
    dialog = page.getByRole('dialog');
    const newKey = await dialog.getByLabel('API key', { exact: true }).inputValue();
    expect(newKey).not.toBe(oldSecrets.apiKey);
    expect(newKey).not.toContain('•');
    expect(await dialog.getByTestId('connection-status').textContent()).toBe('Awaiting SDK connection');
    expect((await sdkCall(oldSecrets)).status).toBe(401);
  });

  it('lets the Administrator move a game to moderation and connect it, and another issuer never sees it', async () => {
    const admin = await (await newContext(browser)).newPage();
    const errors = watchErrors(admin);
    await signIn(admin, server, adminEmail);
    await admin.goto(`${server.url}/games`);
    const select = admin.getByRole('combobox', { name: 'Status of game “Star Puzzle”' });
    await select.waitFor();
    // Only what the machine allows from "SDK connected" is offered.
    expect(await select.locator('option').allTextContents()).toEqual([
      'SDK connected',
      'On moderation',
      'Game disabled',
    ]);
    await select.selectOption({ label: 'On moderation' });
    await admin.getByRole('dialog').getByText('“Star Puzzle”: SDK connected → On moderation').waitFor();
    await admin.getByRole('button', { name: 'Agree' }).click();
    await admin.getByText('Status of “Star Puzzle”: On moderation').waitFor();
    await expect
      .poll(() => select.locator('option').allTextContents())
      .toEqual(['On moderation', 'Game connected', 'SDK connected', 'Game disabled']);
    await select.selectOption({ label: 'Game connected' });
    await admin.getByRole('button', { name: 'Agree' }).click();
    await expect.poll(() => select.locator('option:checked').textContent()).toBe('Game connected');

    // Narrow the list to one organization by clicking its name.
    await admin.getByRole('button', { name: 'Pixel Forge' }).first().click();
    await admin.getByText('Organization: Pixel Forge').waitFor();
    expect(errors).toEqual([]);

    const other = await (await newContext(browser)).newPage();
    await signIn(other, server, otherIssuerEmail);
    await other.goto(`${server.url}/games`);
    await other.getByText('No games yet').waitFor();
    expect(await other.getByText('Star Puzzle').count()).toBe(0);
  });

  it('deletes a game after confirmation', async () => {
    const page = await (await newContext(browser)).newPage();
    await signIn(page, server, issuerEmail);
    await page.goto(`${server.url}/games`);
    await page.getByRole('button', { name: 'Delete game “Rekey Racer”' }).click();
    await page.getByText('Game “Rekey Racer” will be deleted').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByRole('row', { name: /Rekey Racer/ }).count()).toBe(1);
    await page.getByRole('button', { name: 'Delete game “Rekey Racer”' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Game “Rekey Racer” deleted').waitFor();
    await expect.poll(() => page.getByRole('row', { name: /Rekey Racer/ }).count()).toBe(0);
  });
});
