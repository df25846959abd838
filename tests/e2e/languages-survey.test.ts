import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { axeFull, axeLines, launchBrowser, startApp, watchErrors } from './helpers';
import type { TestServer } from '../server/helpers';
import { insertSurveyProject } from '../server/survey-fixtures';
import { newAnswer, newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';
import type { ProjectContent } from '../../src/domain/content/model';

// A respondent in Chromium whose browser asks for English (issue 32): the questionnaire opens in
// English, the header's picker switches questions and interface to Russian in the middle, keeping
// the answer already ticked, and the survey finishes in Russian; <html lang> follows the
// questionnaire's language; the respondent is stored in Russian (the last page's language), answers
// by id. A language with no interface dictionary shows its questions with the interface in English.

let server: TestServer;
let browser: Browser;

function content(): ProjectContent {
  return {
    languages: ['ru', 'en', 'de'],
    portraits: [],
    questionnaires: [
      newQuestionnaire({
        id: 'Q',
        blocks: [
          newBlock({
            id: 'B',
            questions: [
              newQuestion({
                id: 'play',
                text: 'Вы играете в игры?',
                translations: { en: { text: 'Do you play games?' }, de: { text: 'Spielen Sie?' } },
                answers: [
                  newAnswer({
                    id: 'yes',
                    text: 'Да',
                    translations: { en: { text: 'Yes' }, de: { text: 'Ja' } },
                  }),
                  newAnswer({
                    id: 'no',
                    text: 'Нет',
                    translations: { en: { text: 'No' }, de: { text: 'Nein' } },
                  }),
                ],
              }),
              newQuestion({
                id: 'genres',
                text: 'Какие жанры вам нравятся?',
                category: 'fewAnswers',
                translations: { en: { text: 'Which genres do you like?' } },
                answers: [
                  newAnswer({ id: 'rpg', text: 'Ролевые', translations: { en: { text: 'Role-playing' } } }),
                  newAnswer({ id: 'puzzle', text: 'Головоломки', translations: { en: { text: 'Puzzles' } } }),
                ],
              }),
              newQuestion({
                id: 'why',
                text: 'Почему?',
                category: 'open',
                translations: { en: { text: 'Why?' } },
              }),
            ],
          }),
        ],
      }),
    ],
  };
}

beforeAll(async () => {
  server = await startApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const heading = async (page: Page) => (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);

describe('the respondent page in several languages', () => {
  it('opens in the browser’s English, switches to Russian in the middle keeping the answer, and finishes', async () => {
    const { link } = await insertSurveyProject(server, content());
    const context = await browser.newContext({
      locale: 'en-US',
      viewport: { width: 1280, height: 800 },
      bypassCSP: true,
    });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/s/${link}`);
    await expect.poll(() => heading(page)).toBe('Do you play games?');
    await expect.poll(() => htmlLang(page)).toBe('en');
    const picker = page.getByLabel('Language');
    expect(await picker.locator('option').allTextContents()).toEqual(['Русский', 'English', 'Deutsch']);
    expect(await picker.inputValue()).toBe('en');
    await page.getByRole('main').getByLabel('Yes').check();
    await page.getByRole('button', { name: 'Next' }).click();

    await expect.poll(() => heading(page)).toBe('Which genres do you like?');
    await page.getByRole('main').getByLabel('Puzzles').check();
    expect(axeLines(await axeFull(page))).toEqual([]);
    // Switched in the middle: questions, answers and interface in Russian, the ticked answer kept.
    await picker.selectOption('ru');
    await expect.poll(() => heading(page)).toBe('Какие жанры вам нравятся?');
    await expect.poll(() => htmlLang(page)).toBe('ru');
    expect(await page.getByRole('main').getByLabel('Головоломки').isChecked()).toBe(true);
    expect(await page.getByLabel('Язык').inputValue()).toBe('ru');
    // Back shows the first page's answer in Russian, still given.
    await page.getByRole('button', { name: 'Назад' }).click();
    await expect.poll(() => heading(page)).toBe('Вы играете в игры?');
    expect(await page.getByRole('main').getByLabel('Да').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Далее' }).click();
    await expect.poll(() => heading(page)).toBe('Какие жанры вам нравятся?');
    await page.getByRole('button', { name: 'Далее' }).click();
    await expect.poll(() => heading(page)).toBe('Почему?');
    await page.getByRole('main').getByLabel('Ваш ответ').fill('Интересно');
    await page.getByRole('button', { name: 'Далее' }).click();
    await expect.poll(() => heading(page)).toBe('Спасибо!');

    const row = await server.app.db
      .selectFrom('respondents')
      .select(['id', 'language', 'status'])
      .where(
        'project_id',
        '=',
        (
          await server.app.db
            .selectFrom('projects')
            .select('id')
            .where('link_token', '=', link)
            .executeTakeFirstOrThrow()
        ).id,
      )
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ language: 'ru', status: 2 });
    const answers = await server.app.db
      .selectFrom('respondent_answers')
      .select(['question_id', 'answer_id', 'text'])
      .where('respondent_id', '=', row.id)
      .orderBy('id')
      .execute();
    expect(answers).toEqual([
      { question_id: 'play', answer_id: 'yes', text: null },
      { question_id: 'genres', answer_id: 'puzzle', text: null },
      { question_id: 'why', answer_id: null, text: 'Интересно' },
    ]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('takes the link’s ?lang= over the browser; a language without an interface dictionary shows English around its questions', async () => {
    const { link } = await insertSurveyProject(server, content());
    const context = await browser.newContext({
      locale: 'ru-RU',
      viewport: { width: 360, height: 760 },
      bypassCSP: true,
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/s/${link}?lang=de`);
    await expect.poll(() => heading(page)).toBe('Spielen Sie?');
    await expect.poll(() => htmlLang(page)).toBe('de');
    expect(await page.getByRole('button', { name: 'Next' }).isVisible()).toBe(true);
    await page.getByRole('main').getByLabel('Ja').check();
    await page.getByRole('button', { name: 'Next' }).click();
    // No German text for this question: the source shows, the interface stays English.
    await expect.poll(() => heading(page)).toBe('Какие жанры вам нравятся?');
    expect(axeLines(await axeFull(page))).toEqual([]);
    await context.close();
  });
});
