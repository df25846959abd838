import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { axeFull, axeLines, launchBrowser, startApp, watchErrors } from './helpers';
import type { TestServer } from '../server/helpers';
import { insertSurveyProject } from '../server/survey-fixtures';
import { newBlock, newPortrait, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';
import type { ProjectContent } from '../../src/domain/content/model';

// The fields the editor's panels set, as a respondent meets them in Chromium (issue 13), at 1440 and
// 360 px: the profile step's city (the lookup by the link), an open answer's length with its live
// counter, a city question narrowed to one region, and the NPS scale's own end labels tied to the
// radio group. axe-core's full rule set finds nothing serious or critical on any of these pages.

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

function content(): ProjectContent {
  return {
    questionnaires: [
      newQuestionnaire({
        id: 'Q1',
        blocks: [
          newBlock({
            id: 'B1',
            questions: [
              newQuestion({
                id: 'open',
                text: 'What do you like in the game?',
                category: 'open',
                textLength: { min: 3, max: 20 },
              }),
              newQuestion({ id: 'city', text: 'Where do you live?', category: 'cityAuto', region: 'MOS' }),
              newQuestion({
                id: 'nps',
                text: 'Would you recommend the game to a friend?',
                category: 'nps',
                scaleLabels: { min: 'Never in my life', max: 'Already did, many times over' },
              }),
            ],
          }),
        ],
      }),
    ],
    portraits: [
      newPortrait({
        id: 'p1',
        respondents: 50,
        params: [{ field: 'gender', values: ['female'], min: null, max: null }],
      }),
    ],
  };
}

async function audit(page: Page, what: string) {
  expect(axeLines(await axeFull(page)), what).toEqual([]);
}

async function noOverflow(page: Page) {
  const wide = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(wide).toBeLessThanOrEqual(0);
}

async function shot(page: Page, name: string) {
  if (process.env.SHOTS) await page.screenshot({ path: `/tmp/runner-fields-${name}.png`, fullPage: true });
}

/** The text of the elements an element's aria-describedby names. */
function description(page: Page, selector: string): Promise<string> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel)!;
    return (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' | ');
  }, selector);
}

describe('the runner obeys the fields the panels set', () => {
  for (const width of [1440, 360]) {
    it(`at ${width} px: profile city, open answer length and counter, city in its region, NPS labels`, async () => {
      const { pid, link } = await insertSurveyProject(server, content());
      const ctx = await browser.newContext({
        locale: 'en',
        viewport: { width, height: 800 },
        bypassCSP: true,
      });
      const page = await ctx.newPage();
      const errors = watchErrors(page);
      await page.goto(`${server.url}/s/${link}`);
      const main = page.getByRole('main');

      // The profile step: the city through the lookup (by the link's token).
      await page.getByRole('heading', { name: 'About you' }).waitFor();
      await page.getByLabel('Gender').selectOption('female');
      const cityBox = main.getByRole('combobox', { name: 'City' });
      // A name typed and not picked is not a city: the step says so instead of dropping it.
      await cityBox.fill('Podol');
      await page.getByRole('button', { name: 'Start' }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toBe('Choose a place from the list');
      expect(await page.getByRole('heading', { name: 'About you' }).isVisible()).toBe(true);
      await cityBox.fill('');
      await cityBox.fill('Podol');
      await main.getByRole('option', { name: /Podolsk/ }).waitFor();
      await audit(page, 'profile with the city list open');
      await noOverflow(page);
      await shot(page, `${width}-profile`);
      await main.getByRole('option', { name: /Podolsk/ }).click();
      expect(await cityBox.inputValue()).toBe('Podolsk');
      await page.getByRole('button', { name: 'Start' }).click();

      // The open answer: maxLength from the question, a live counter, the minimum said and checked.
      await page.getByRole('heading', { name: 'What do you like in the game?' }).waitFor();
      const box = main.getByRole('textbox', { name: 'Your answer' });
      expect(await box.getAttribute('maxlength')).toBe('20');
      const counter = main.getByTestId('text-counter');
      expect(await counter.innerText()).toContain('0 / 20');
      await box.fill('ab');
      expect(await counter.innerText()).toContain('2 / 20');
      expect(await main.getByText('From 3 to 20 characters').isVisible()).toBe(true);
      expect(await description(page, 'textarea')).toContain('2 / 20');
      await page.getByRole('button', { name: 'Next' }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toBe('Enter at least 3 characters');
      await box.pressSequentially('c'.repeat(30));
      expect((await box.inputValue()).length).toBe(20);
      expect(await counter.innerText()).toContain('20 / 20');
      await box.fill('the dragons');
      expect(await counter.innerText()).toContain('11 / 20');
      await audit(page, 'open answer with a counter');
      await noOverflow(page);
      await shot(page, `${width}-open`);
      await page.getByRole('button', { name: 'Next' }).click();

      // The city question: only the cities of its region are offered.
      await page.getByRole('heading', { name: 'Where do you live?' }).waitFor();
      const city = main.getByRole('combobox', { name: 'City' });
      await city.focus();
      await expect.poll(() => main.getByRole('option').count()).toBeGreaterThan(3);
      const details = await main.getByRole('option').allInnerTexts();
      expect(
        details.every((d) => d.includes('Moscow Oblast')),
        details.join('; '),
      ).toBe(true);
      await city.fill('Saint Petersburg');
      await main.getByText('Nothing found in the region of this question').waitFor();
      await page.getByRole('button', { name: 'Next' }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toBe('Choose a place from the list');
      await city.fill('Khim');
      await main.getByRole('option', { name: /Khimki/ }).waitFor();
      await audit(page, 'city question with its list open');
      await noOverflow(page);
      await shot(page, `${width}-city`);
      await main.getByRole('option', { name: /Khimki/ }).click();
      await page.getByRole('button', { name: 'Next' }).click();

      // NPS: the question's own words under the 0 and 10 ends, describing the group and its ends.
      await page.getByRole('heading', { name: 'Would you recommend the game to a friend?' }).waitFor();
      const low = main.getByTestId('scale-low');
      const high = main.getByTestId('scale-high');
      expect(await low.innerText()).toContain('Never in my life');
      expect(await high.innerText()).toContain('Already did, many times over');
      expect(await description(page, 'main fieldset')).toContain('Never in my life');
      expect(await description(page, 'main fieldset')).toContain('Already did, many times over');
      expect(await description(page, 'input[type=radio]:first-of-type')).toContain('Never in my life');
      const radios = main.getByRole('radio');
      expect(await radios.count()).toBe(11);
      expect(
        await page.evaluate(
          () =>
            document.getElementById(
              document.querySelectorAll('input[type=radio]')[10].getAttribute('aria-describedby')!,
            )?.textContent,
        ),
      ).toContain('Already did');
      // The words sit under the ends: the low one starts at the 0 button, the high one ends at the
      // 10 button (at 1440 px) or at the group's right edge (two rows of buttons at 360 px).
      const at = await page.evaluate(() => {
        const r = (el: Element) => el.getBoundingClientRect();
        const buttons = [...document.querySelectorAll('main input[type=radio]')].map((i) =>
          r(i.parentElement!),
        );
        return {
          zeroLeft: buttons[0].left,
          tenRight: buttons[10].right,
          groupRight: r(document.querySelector('main fieldset')!).right,
          lowLeft: r(document.querySelector('[data-testid=scale-low]')!).left,
          highRight: r(document.querySelector('[data-testid=scale-high]')!).right,
          highTop: r(document.querySelector('[data-testid=scale-high]')!).top,
          lastRowBottom: Math.max(...buttons.map((b) => b.bottom)),
        };
      });
      expect(Math.abs(at.lowLeft - at.zeroLeft)).toBeLessThan(2);
      expect(Math.abs(at.highRight - at.groupRight)).toBeLessThan(2);
      expect(at.highTop).toBeGreaterThanOrEqual(at.lastRowBottom);
      if (width === 1440) {
        expect(Math.abs(at.highRight - at.tenRight)).toBeLessThan(2);
      } else {
        // Two rows of buttons on a phone: each word says which end it belongs to.
        expect(await low.innerText()).toMatch(/^0 — /);
        expect(await high.innerText()).toMatch(/^10 — /);
      }
      await audit(page, 'nps with labels');
      await noOverflow(page);
      await shot(page, `${width}-nps`);
      await main.getByText('9', { exact: true }).click();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('heading', { name: 'Thank you!' }).waitFor();
      expect(errors).toEqual([]);

      const r = await server.app.db
        .selectFrom('respondents')
        .selectAll()
        .where('project_id', '=', pid)
        .executeTakeFirstOrThrow();
      expect([r.status, r.city, r.region, r.gender]).toEqual([2, 'MOS:Podolsk', 'MOS', 'female']);
      const rows = await server.app.db
        .selectFrom('respondent_answers')
        .select(['question_id', 'text', 'value'])
        .where('respondent_id', '=', r.id)
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { question_id: 'open', text: 'the dragons', value: null },
        { question_id: 'city', text: 'MOS:Khimki', value: null },
        { question_id: 'nps', text: null, value: 9 },
      ]);
      await ctx.close();
    });
  }
});
