import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startApp, watchErrors } from './helpers';
import type { TestServer } from '../server/helpers';
import { insertSurveyProject } from '../server/survey-fixtures';
import { newAnswer, newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';

// The ranking question dragged with a finger (Pointer Events): on a 360 px touch screen the grip at a
// row's start moves it, a finger on the row's text leaves the order alone (it scrolls the page), and
// the order dropped is what the server stores.

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

/** One finger from one point to another in small steps, as Chromium's touch input (CDP). */
async function swipe(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
  for (let k = 1; k <= 8; k++) {
    const p = { x: from.x + ((to.x - from.x) * k) / 8, y: from.y + ((to.y - from.y) * k) / 8 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [p] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

async function centre(target: ReturnType<Page['locator']>) {
  const box = (await target.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** A survey of one ranking question with three answers. */
function rankingSurvey() {
  return insertSurveyProject(server, {
    portraits: [],
    questionnaires: [
      newQuestionnaire({
        id: 'Q1',
        blocks: [
          newBlock({
            questions: [
              newQuestion({
                id: 'rank',
                text: 'Rank',
                category: 'sortable',
                answers: ['Alpha', 'Beta', 'Gamma'].map((text, i) => newAnswer({ id: `r${i + 1}`, text })),
              }),
            ],
          }),
        ],
      }),
    ],
  });
}

/** The survey's page on a 360 px phone, its ranking question shown. */
async function openSurvey(link: string, touch: { hasTouch?: boolean; isMobile?: boolean } = {}) {
  const ctx = await browser.newContext({
    locale: 'en',
    viewport: { width: 360, height: 740 },
    bypassCSP: true,
    ...touch,
  });
  const page = await ctx.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.url}/s/${link}`);
  await page.getByRole('heading', { level: 1, name: 'Rank' }).waitFor();
  return { ctx, page, errors };
}

it('a finger drags a ranked answer by its grip on a phone, and the server stores that order', async () => {
  const { pid, link } = await rankingSurvey();
  const { ctx, page, errors } = await openSurvey(link, { hasTouch: true, isMobile: true });
  const rows = page.getByRole('main').getByRole('listitem');
  const texts = () => rows.allTextContents();
  await expect.poll(async () => (await texts()).join('|')).toMatch(/Alpha.*\|.*Beta.*\|.*Gamma/);

  // A finger on the text of the last row, moved up: the page scrolls, the order stays.
  await swipe(page, await centre(rows.nth(2).getByText('Gamma')), await centre(rows.nth(0)));
  expect((await texts()).map((t) => t.replace(/[^A-Za-z]/g, '').replace(/^Rank/, ''))).toEqual([
    'Alpha',
    'Beta',
    'Gamma',
  ]);

  // The grip of "Gamma" dragged to the top row: Gamma first.
  const grip = rows.nth(2).locator('[data-grip]').first();
  await swipe(page, await centre(grip), await centre(rows.nth(0)));
  await expect
    .poll(async () => (await texts()).map((t) => t.replace(/[^A-Za-z]/g, '').replace(/^Rank/, '')))
    .toEqual(['Gamma', 'Alpha', 'Beta']);
  // Screen readers hear the move.
  await expect.poll(() => page.locator('[aria-live="polite"]', { hasText: 'Gamma: Rank 1' }).count()).toBe(1);

  // A finger takes a moment to come back: a tap at once after the swipe is a double-tap gesture to
  // Chromium, which may drop its click.
  await page.waitForTimeout(500);
  await page.getByRole('button', { name: 'Next' }).tap();
  await page.getByRole('heading', { name: 'Thank you!' }).waitFor();
  expect(await storedOrder(pid)).toEqual([
    ['r3', 1],
    ['r1', 2],
    ['r2', 3],
  ]);
  expect(errors).toEqual([]);
  await ctx.close();
});

/** The stored ranks of the project's one respondent, first to last. */
async function storedOrder(pid: number) {
  const rows = await server.app.db
    .selectFrom('respondent_answers')
    .innerJoin('respondents', 'respondents.id', 'respondent_answers.respondent_id')
    .select(['answer_id', 'value'])
    .where('respondents.project_id', '=', pid)
    .orderBy('value')
    .execute();
  return rows.map((r) => [r.answer_id, r.value]);
}

it('the order shown is an answer once the respondent says it is right, not before', async () => {
  const { pid, link } = await rankingSurvey();
  const { ctx, page, errors } = await openSurvey(link);
  // Nothing chosen yet: the question asks for an answer, and nothing is stored.
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByText('This field is required').waitFor();
  expect(await storedOrder(pid)).toEqual([]);
  // Agreeing with the order shown takes one press, no move and move back.
  await page.getByRole('button', { name: 'This order is right' }).click();
  await page.getByText('Your order is set. You can still change it.').first().waitFor();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('heading', { name: 'Thank you!' }).waitFor();
  expect(await storedOrder(pid)).toEqual([
    ['r1', 1],
    ['r2', 2],
    ['r3', 3],
  ]);
  expect(errors).toEqual([]);
  await ctx.close();
});
