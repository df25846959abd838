import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axeFull, axeLines, launchBrowser, startApp, watchErrors } from './helpers';
import type { TestServer } from '../server/helpers';
import { insertSurveyProject, surveyContent } from '../server/survey-fixtures';
import { newQuestion, newAnswer, newPortrait } from '../../src/domain/content/factory';
import { ProjectStatus } from '../../src/domain/projects';
import type { ProjectContent } from '../../src/domain/content/model';

// A respondent takes a survey in Chromium (issue 13): every one of the 13 categories, a redirect that
// skips a question, a screening question and a shuffled list; at desktop width with the mouse and at
// 360 px with the keyboard alone; closing the tab mid-way and coming back; axe-core (full rule set)
// finds nothing serious or critical on any page.

let server: TestServer;
let browser: Browser;

/** The fixture with a question the first answer's redirect skips. */
function e2eContent(): ProjectContent {
  const c = surveyContent();
  const qs = c.questionnaires[0].blocks[0].questions;
  const one = qs.find((q) => q.id === 'one')!;
  one.answers[0].redirect = { kind: 'questionInBlock', target: 'few' };
  qs.splice(
    2,
    0,
    newQuestion({ id: 'skipped', text: 'Skipped question', answers: [newAnswer({ id: 'k1', text: 'K1' })] }),
  );
  return c;
}

beforeAll(async () => {
  server = await startApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function context(width: number): Promise<BrowserContext> {
  return browser.newContext({ locale: 'en', viewport: { width, height: 760 }, bypassCSP: true });
}

async function heading(page: Page): Promise<string> {
  return (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
}

async function noOverflow(page: Page) {
  const wide = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(wide).toBeLessThanOrEqual(0);
}

/** Answers the page on screen with the mouse. */
async function answerWithMouse(page: Page, q: string) {
  const main = page.getByRole('main');
  switch (q) {
    case 'Do you play games?':
      return main.getByLabel('yes').check();
    case 'One':
      return main.getByLabel('o1').check();
    case 'Few':
      await main.getByLabel('f2').check();
      await main.getByLabel('Other').check();
      return main.getByLabel('Your answer').fill('mine');
    case 'Qualification':
      return main.getByLabel('q2').check();
    case 'Open':
      return main.getByLabel('Your answer').fill('hello there');
    case 'Range':
      return main.getByLabel(/Value \(from 1 to 10\)/).fill('4');
    case 'Stars':
      return main.getByRole('radio', { name: '4 of 5' }).locator('..').click();
    case 'Slider':
      return main.getByRole('slider').fill('35');
    case 'NPS':
      return main.getByText('9', { exact: true }).click();
    case 'Rank': {
      const items = main.getByRole('listitem');
      await items.nth(2).dragTo(items.nth(0));
      return;
    }
    case 'Matrix':
      await main.getByLabel('S1: c2').check();
      return main.getByLabel('S2: c1').check();
    case 'Region':
      await main.getByRole('combobox').fill('Moscow Obl');
      return main.getByRole('option', { name: /Moscow Oblast/ }).click();
    case 'City':
      await main.getByRole('combobox').fill('Podol');
      return main.getByRole('option', { name: /Podolsk|Подольск/ }).click();
  }
  throw new Error(`no answer for ${q}`);
}

/** Presses Tab until the focused element matches (keyboard alone). */
async function tabTo(
  page: Page,
  test: (el: { label: string; tag: string; type: string; role: string }) => boolean,
) {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const el = await page.evaluate(() => {
      const e = document.activeElement as HTMLInputElement | null;
      if (!e) return { label: '', tag: '', type: '', role: '' };
      const labelled = e.getAttribute('aria-label') ?? e.labels?.[0]?.textContent ?? e.textContent ?? '';
      return {
        label: labelled.trim(),
        tag: e.tagName.toLowerCase(),
        type: e.type ?? '',
        role: e.getAttribute('role') ?? '',
      };
    });
    if (test(el)) return;
  }
  throw new Error('focus never reached the control');
}
const labelled = (text: string | RegExp) => (el: { label: string }) =>
  typeof text === 'string' ? el.label === text : text.test(el.label);

async function answerWithKeyboard(page: Page, q: string) {
  const k = page.keyboard;
  switch (q) {
    case 'Do you play games?':
      await tabTo(page, labelled('yes'));
      return k.press('Space');
    case 'One':
      await tabTo(page, labelled('o1'));
      return k.press('Space');
    case 'Few':
      await tabTo(page, labelled('f1'));
      await k.press('Space');
      await tabTo(page, labelled('Other'));
      await k.press('Space');
      return k.type('mine');
    case 'Qualification':
      await tabTo(page, labelled('q1'));
      return k.press('ArrowDown'); // q2
    case 'Open':
      await tabTo(page, (el) => el.tag === 'textarea');
      return k.type('typed');
    case 'Range':
      await tabTo(page, (el) => el.type === 'number');
      return k.type('7');
    case 'Stars':
      await tabTo(page, labelled('1 of 5'));
      await k.press('ArrowRight');
      return k.press('ArrowRight'); // 3
    case 'Slider':
      await tabTo(page, (el) => el.type === 'range');
      return k.press('ArrowRight');
    case 'NPS':
      await tabTo(page, labelled('0'));
      for (let i = 0; i < 10; i++) await k.press('ArrowRight');
      return;
    case 'Rank':
      await tabTo(page, labelled(/^Move down: /));
      return k.press('Enter');
    case 'Matrix':
      await tabTo(page, labelled('S1: c1'));
      await k.press('Space');
      await tabTo(page, labelled('S2: c1'));
      return k.press('ArrowRight'); // c2
    case 'Region':
      await tabTo(page, (el) => el.role === 'combobox');
      await k.type('Moscow Obl');
      await page.getByRole('option', { name: /Moscow Oblast/ }).waitFor();
      return k.press('Enter');
    case 'City':
      await tabTo(page, (el) => el.role === 'combobox');
      await k.type('Podol');
      await page.getByRole('option', { name: /Podolsk|Подольск/ }).waitFor();
      return k.press('Enter');
  }
  throw new Error(`no answer for ${q}`);
}

const ALL = [
  'Do you play games?',
  'One',
  'Few',
  'Qualification',
  'Open',
  'Range',
  'Stars',
  'Slider',
  'NPS',
  'Rank',
  'Matrix',
  'Region',
  'City',
];

async function respondents(pid: number) {
  return server.app.db.selectFrom('respondents').selectAll().where('project_id', '=', pid).execute();
}

describe('the respondent page', () => {
  it('at desktop width with the mouse: every category, the redirect, the shuffle, resume after closing the tab, axe on every page', async () => {
    const { pid, link } = await insertSurveyProject(server, e2eContent());
    const ctx = await context(1440);
    let page = await ctx.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/s/${link}`);
    const seen: string[] = [];
    for (let i = 0; i < 20; i++) {
      await page.getByRole('heading', { level: 1 }).waitFor();
      const h = await heading(page);
      if (h === 'Thank you!') break;
      seen.push(h);
      expect(axeLines(await axeFull(page)), h).toEqual([]);
      if (process.env.SHOTS) await page.screenshot({ path: `/tmp/runner-shot-d-${i}.png`, fullPage: true });
      if (h === 'Required fields' || h === '') throw new Error('unexpected page');
      // Required: Next without an answer says so.
      if (h === 'Open') {
        await page.getByRole('button', { name: 'Next' }).click();
        await expect.poll(() => page.getByRole('alert').textContent()).toBe('This field is required');
      }
      await answerWithMouse(page, h);
      if (h === 'Qualification') {
        // Close the tab mid-way and open the link again: the survey continues on the same page.
        await page.close();
        page = await ctx.newPage();
        await page.goto(`${server.url}/s/${link}`);
        await page.getByRole('heading', { level: 1, name: 'Qualification' }).waitFor();
        await answerWithMouse(page, h);
      }
      await page.getByRole('button', { name: 'Next' }).click();
      await page.waitForFunction((prev) => document.querySelector('h1')?.textContent !== prev, h);
    }
    expect(seen).toEqual(ALL);
    expect(seen).not.toContain('Skipped question');
    await expect
      .poll(() => page.getByText('Your answers have been saved. You may close this page.').isVisible())
      .toBe(true);
    expect(axeLines(await axeFull(page))).toEqual([]);
    expect(errors).toEqual([]);
    const [r] = await respondents(pid);
    expect(r.status).toBe(2);
    const state = JSON.parse(r.state);
    expect([...state.orders.few].sort()).toEqual(['f1', 'f2', 'f3']);
    const rows = await server.app.db
      .selectFrom('respondent_answers')
      .selectAll()
      .where('respondent_id', '=', r.id)
      .execute();
    expect(rows.filter((x) => x.question_id === 'rank').map((x) => [x.answer_id, x.value])).toEqual([
      ['r3', 1],
      ['r1', 2],
      ['r2', 3],
    ]);
    expect(rows.find((x) => x.question_id === 'city')?.text).toBe('MOS:Podolsk');
    expect(rows.find((x) => x.question_id === 'nps')?.value).toBe(9);
    // Opening the link again after finishing shows the thank-you page, not a new survey.
    await page.goto(`${server.url}/s/${link}`);
    await page.getByRole('heading', { name: 'Thank you!' }).waitFor();
    await ctx.close();
  });

  it('at 360 px with the keyboard alone, in Russian first and switched to English', async () => {
    const { pid, link } = await insertSurveyProject(server, e2eContent());
    const ctx = await browser.newContext({
      locale: 'ru',
      viewport: { width: 360, height: 740 },
      bypassCSP: true,
    });
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/s/${link}`);
    await page.getByRole('button', { name: 'Далее' }).waitFor();
    await tabTo(page, (el) => el.tag === 'select');
    await page.keyboard.press('ArrowDown'); // English
    await page.getByRole('button', { name: 'Next' }).waitFor();
    const seen: string[] = [];
    for (let i = 0; i < 20; i++) {
      const h = await heading(page);
      if (h === 'Thank you!') break;
      seen.push(h);
      await noOverflow(page);
      if (process.env.SHOTS) await page.screenshot({ path: `/tmp/runner-shot-m-${i}.png`, fullPage: true });
      await answerWithKeyboard(page, h);
      if (h === 'Stars') {
        // Back with the keyboard (this page followed "Range" in order), and forward again.
        await tabTo(page, (el) => el.label === 'Back');
        await page.keyboard.press('Enter');
        await page.getByRole('heading', { level: 1, name: 'Range' }).waitFor();
        // Tab from the heading once it has the focus: moved there after the page shows, it would
        // otherwise take the focus back from the button Tab had reached on a slow machine.
        await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
        expect(await page.getByRole('spinbutton').inputValue()).toBe('7');
        await tabTo(page, (el) => el.label === 'Next');
        await page.keyboard.press('Enter');
        await page.getByRole('heading', { level: 1, name: 'Stars' }).waitFor();
        await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
        expect(await page.getByRole('radio', { name: '3 of 5' }).isChecked()).toBe(true);
      }
      await tabTo(page, (el) => el.label === 'Next');
      await page.keyboard.press('Enter');
      await page.waitForFunction((prev) => document.querySelector('h1')?.textContent !== prev, h);
      // The new page's heading has the focus, so the keyboard starts at the top.
      await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    }
    expect(seen).toEqual(ALL);
    await noOverflow(page);
    expect(errors).toEqual([]);
    const [r] = await respondents(pid);
    expect(r.status).toBe(2);
    expect(r.locale).toBe('ru');
    const rows = await server.app.db
      .selectFrom('respondent_answers')
      .selectAll()
      .where('respondent_id', '=', r.id)
      .execute();
    expect(rows.find((x) => x.question_id === 'nps')?.value).toBe(10);
    expect(rows.find((x) => x.question_id === 'stars')?.value).toBe(3);
    expect(rows.filter((x) => x.question_id === 'matrix').map((x) => [x.statement_id, x.answer_id])).toEqual([
      ['s1', 'c1'],
      ['s2', 'c2'],
    ]);
    await ctx.close();
  });

  it('screening that denies ends politely; Back; a paused project and an unknown link say so', async () => {
    const { link } = await insertSurveyProject(server, e2eContent());
    const ctx = await context(1440);
    const page = await ctx.newPage();
    await page.goto(`${server.url}/s/${link}`);
    await page.getByLabel('yes').check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'One' }).waitFor();
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('heading', { name: 'Do you play games?' }).waitFor();
    expect(await page.getByLabel('yes').isChecked()).toBe(true);
    await page.getByLabel('no').check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Thank you for your time' }).waitFor();
    expect(axeLines(await axeFull(page))).toEqual([]);

    const paused = await insertSurveyProject(server, e2eContent(), { status: ProjectStatus.Paused });
    await page.goto(`${server.url}/s/${paused.link}`);
    await page.getByText('The survey is paused. Please come back later.').waitFor();
    await page.goto(`${server.url}/s/NoSuchLinkToken123`);
    await page.getByRole('heading', { name: 'Survey not found' }).waitFor();

    const withProfile = await insertSurveyProject(server, {
      ...e2eContent(),
      portraits: [
        newPortrait({
          id: 'w',
          respondents: 5,
          params: [{ field: 'gender', values: ['female'], min: null, max: null }],
        }),
      ],
    });
    await page.goto(`${server.url}/s/${withProfile.link}`);
    await page.getByRole('heading', { name: 'About you' }).waitFor();
    expect(axeLines(await axeFull(page))).toEqual([]);
    await page.getByLabel('Gender').selectOption('female');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('heading', { name: 'Do you play games?' }).waitFor();
    await ctx.close();
  });
});
