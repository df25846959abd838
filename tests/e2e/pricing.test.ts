import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, signIn, startApp, watchErrors } from './helpers';
import type { TestServer } from '../server/helpers';
import { Role } from '../../src/domain/roles';
import { computePrice, type PriceSettings } from '../../src/domain/price';

// Pricing end to end in Chromium: an Administrator keeps tariffs, changes the calculator's
// settings and watches the live estimate follow (checked against the formula in src/domain), saves,
// and finds the change after a reload.

const SEEDED_RESEARCHERS: PriceSettings = {
  vkPercent: 10,
  basePrice: 5000,
  questionSurcharge: 500,
  questionStep: 10,
  blockSurcharge: 300,
  blockProgressive: 50,
  screeningPrice: 200,
  targetFilterSurcharge: 5,
  filledBlockPrice: 3,
  completedSurveyPrice: 30,
};
/** The estimate's starting counts. */
const COUNTS = { questions: 20, blocks: 3, screening: 2, targetFilters: 2, completes: 500 };

describe('pricing in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let adminEmail: string;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    adminEmail = (await server.createUser({ role: Role.Administrator, email: 'pricing.admin@example.com' }))
      .email;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The number in a money text such as "RUB 16,637.50". */
  const amount = async (page: Page, testId: string) =>
    Number((await page.getByTestId(testId).textContent())!.replace(/[^\d.]/g, ''));
  const setting = (page: Page, name: string, audience: 'For researchers' | 'For issuers') =>
    page.getByLabel(`${name} (${audience})`, { exact: true });

  it('keeps tariffs: validates, creates, lists and deletes after confirmation', async () => {
    const page = await (await newContext(browser)).newPage();
    const errors = watchErrors(page);
    await signIn(page, server, adminEmail);
    await page.goto(`${server.url}/tariffs`);
    await page.getByRole('heading', { name: 'Tariffs' }).waitFor();
    await page.getByText('No tariffs yet').waitFor();

    await page.getByRole('button', { name: 'Add tariff' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => dialog.getByText('This field is required').count()).toBe(2);
    await dialog.getByLabel('Name').fill('Partner');
    for (const [value, message] of [
      ['abc', 'This field must be a number'],
      ['12.5', 'This field must be a number'],
      ['-1', 'This field must be a positive number'],
      ['150', 'At most 100'],
    ]) {
      await dialog.getByLabel('Discount, %').fill(value);
      await dialog.getByRole('button', { name: 'Create' }).click();
      await dialog.getByText(message, { exact: true }).waitFor();
    }
    await dialog.getByLabel('Discount, %').fill('15');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Tariff “Partner” added').waitFor();
    const row = page.getByRole('row', { name: /Partner/ });
    await expect.poll(() => row.textContent()).toContain('15 %');

    // A second one with the same name, any case, is refused on its field.
    await page.getByRole('button', { name: 'Add tariff' }).click();
    await dialog.getByLabel('Name').fill('PARTNER');
    await dialog.getByLabel('Discount, %').fill('5');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('A tariff with this name already exists').waitFor();
    await dialog.getByLabel('Name').fill('Trial');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('row', { name: /Trial/ }).waitFor();

    await page.getByRole('button', { name: 'Delete tariff “Trial”' }).click();
    await page.getByText('Tariff “Trial” with a 5 % discount will be deleted.').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Tariff “Trial” deleted').waitFor();
    await expect.poll(() => page.getByRole('row', { name: /Trial/ }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('changes the calculator, and the live estimate follows the formula before and after saving', async () => {
    const page = await (await newContext(browser)).newPage();
    const errors = watchErrors(page);
    await signIn(page, server, adminEmail);
    await page.goto(`${server.url}/calculator`);
    await page.getByRole('heading', { name: 'Calculator' }).waitFor();
    await page.getByRole('columnheader', { name: 'For researchers' }).waitFor();
    await page.getByRole('columnheader', { name: 'For issuers' }).waitFor();

    const seeded = computePrice(SEEDED_RESEARCHERS, COUNTS).total;
    await expect.poll(() => amount(page, 'estimate-researchers-total')).toBe(seeded);
    const issuersBefore = await amount(page, 'estimate-issuers-total');
    expect(await page.getByRole('img', { name: 'What the price is made of: For researchers' }).count()).toBe(
      1,
    );

    // A change shows in the estimate at once, before saving, and only in its own column.
    await setting(page, 'Base questionnaire price', 'For researchers').fill('8000');
    const changed = computePrice({ ...SEEDED_RESEARCHERS, basePrice: 8000 }, COUNTS).total;
    expect(changed).toBe(seeded + 3300);
    await expect.poll(() => amount(page, 'estimate-researchers-total')).toBe(changed);
    expect(await amount(page, 'estimate-issuers-total')).toBe(issuersBefore);
    await page.getByText('There are unsaved changes').waitFor();

    // The spec's messages; a wrong value hides that column's estimate instead of pricing nonsense.
    const step = setting(page, 'For every N questions', 'For researchers');
    await step.fill('abc');
    await page.getByText('This field must be a number', { exact: true }).waitFor();
    await step.fill('-3');
    await page.getByText('This field must be a positive number', { exact: true }).waitFor();
    await page.getByText('For researchers: Correct the fields with errors to see the estimate').waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('This field must be a positive number', { exact: true }).waitFor();
    await step.fill('5');
    const withStep = computePrice({ ...SEEDED_RESEARCHERS, basePrice: 8000, questionStep: 5 }, COUNTS).total;
    await expect.poll(() => amount(page, 'estimate-researchers-total')).toBe(withStep);

    // The tenth setting lives in /vk/percent; the estimate uses it too.
    await setting(page, 'Percent VK', 'For issuers').fill('0');
    await expect.poll(() => amount(page, 'estimate-issuers-total')).toBeLessThan(issuersBefore);

    // More completed surveys cost more.
    await page.getByLabel('Completed surveys').fill('1000');
    const more = computePrice(
      { ...SEEDED_RESEARCHERS, basePrice: 8000, questionStep: 5 },
      { ...COUNTS, completes: 1000 },
    ).total;
    await expect.poll(() => amount(page, 'estimate-researchers-total')).toBe(more);

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Calculator settings saved').waitFor();

    // Saved on the server: a reload shows the new values and the same estimate.
    await page.reload();
    await expect
      .poll(() => setting(page, 'Base questionnaire price', 'For researchers').inputValue())
      .toBe('8000');
    expect(await setting(page, 'For every N questions', 'For researchers').inputValue()).toBe('5');
    expect(await setting(page, 'Percent VK', 'For issuers').inputValue()).toBe('0');
    await expect.poll(() => amount(page, 'estimate-researchers-total')).toBe(withStep);
    const api = await server.call('GET', '/vk/percent', { session: await server.login(adminEmail) });
    expect(api.body).toEqual({ researchers: 10, issuers: 0 });

    // A tariff's discount applies to the estimate.
    await page.getByLabel('Tariff', { exact: true }).selectOption({ label: 'Partner — 15 % discount' });
    const discounted = computePrice(
      { ...SEEDED_RESEARCHERS, basePrice: 8000, questionStep: 5 },
      COUNTS,
      15,
    ).total;
    await expect.poll(() => amount(page, 'estimate-researchers-total')).toBe(discounted);
    expect(errors).toEqual([]);
  });

  it('keeps the pricing pages from other roles on the server', async () => {
    const researcher = await server.as(Role.Researcher);
    expect((await server.call('POST', '/tariffs/calculator', { session: researcher, body: {} })).status).toBe(
      403,
    );
    expect((await server.call('GET', '/tariffs', { session: researcher })).status).toBe(403);
  });
});
