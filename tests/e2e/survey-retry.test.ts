import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newContext, startApp, watchErrors } from './helpers';
import type { TestServer } from '../server/helpers';
import { insertSurveyProject } from '../server/survey-fixtures';
import { newAnswer, newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';

// The respondent page sends a page of answers again when it fails on the way (issue 33: servers
// restarting behind a balancer): here the server stores the page but its answer is lost (the
// connection reset), then the balancer answers 503, then the page gets through. The respondent
// sees the next question, no error, and the server holds the page once.

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

it('sends a page again after a lost answer and a 503, and the server keeps it once', async () => {
  const question = (id: string, text: string) =>
    newQuestion({
      id,
      text,
      answers: [
        newAnswer({ id: `${id}a`, text: `${text} A` }),
        newAnswer({ id: `${id}b`, text: `${text} B` }),
      ],
    });
  const { pid, link } = await insertSurveyProject(server, {
    portraits: [],
    questionnaires: [
      newQuestionnaire({
        id: 'Q1',
        blocks: [newBlock({ questions: [question('first', 'First'), question('second', 'Second')] })],
      }),
    ],
  });
  const ctx = await newContext(browser);
  const page = await ctx.newPage();
  const errors = watchErrors(page);
  const seen: string[] = [];
  await page.route('**/api/v1/service/survey/answer', async (route) => {
    const n = seen.length;
    if (n === 0) {
      // Reaches the server, which stores the page; its answer never comes back.
      const res = await route.fetch();
      seen.push(`stored ${res.status()}`);
      return route.abort('connectionreset');
    }
    if (n === 1) {
      seen.push('503');
      return route.fulfill({
        status: 503,
        contentType: 'text/html',
        body: '<h1>503 Service Unavailable</h1>',
      });
    }
    seen.push('through');
    return route.continue();
  });
  await page.goto(`${server.url}/s/${link}`);
  await page.getByRole('heading', { level: 1, name: 'First' }).waitFor();
  await page.getByRole('main').getByLabel('First B').check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('heading', { level: 1, name: 'Second' }).waitFor({ timeout: 30_000 });
  expect(seen).toEqual(['stored 200', '503', 'through']);
  expect(await page.getByRole('alert').count()).toBe(0);
  expect(errors).toEqual([]);

  const rows = await server.app.db
    .selectFrom('respondent_answers')
    .select(['question_id', 'answer_id'])
    .where('project_id', '=', pid)
    .execute();
  expect(rows).toEqual([{ question_id: 'first', answer_id: 'firstb' }]);
  await ctx.close();
});
