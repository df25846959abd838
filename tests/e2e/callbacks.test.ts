import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newAuditPage, signIn, startApp, watchErrors } from './helpers';
import { seriousViolations, selectBlock } from './panels-helpers';
import type { TestServer } from '../server/helpers';
import {
  callbackContent,
  insertSurveyProject,
  startReceiver,
  type Receiver,
} from '../server/callback-receiver';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';

// Block callbacks in Chromium (issue 24): a Moderator sets a callbackUrl on a block of a project On
// moderation; the project goes On rotation; a respondent completes the block on the respondent page;
// the block panel shows the delivery as delivered, then a test call. The receiver is a real HTTP
// server on a loopback port, exempted through CALLBACK_ALLOW_HOSTS.

let server: TestServer;
let browser: Browser;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startApp((c) => {
    c.callbacks.allowHosts = [`127.0.0.1:${receiver.port}`];
    c.callbacks.pollMs = 100;
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await receiver?.close();
});

it('a Moderator sets a callbackUrl on moderation; a respondent completes the block; the panel shows it delivered', async () => {
  const { pid, link } = await insertSurveyProject(server, callbackContent(''), {
    status: ProjectStatus.OnModeration,
  });
  const moderator = await server.as(Role.Moderator);
  const page = await newAuditPage(browser);
  await page.setViewportSize({ width: 1440, height: 900 });
  const errors = watchErrors(page);
  await signIn(page, server, moderator.user.email);
  await page.goto(`${server.url}/project?pid=${pid}`);
  await page.getByRole('tree', { name: 'Questionnaire outline' }).waitFor();
  await selectBlock(page, 1);
  const panel = page.locator('[data-panel]');
  await panel.getByLabel('callbackUrl').fill(receiver.url);
  await panel.getByLabel('callbackUrl').press('Tab');
  await expect.poll(() => panel.getByRole('status').last().textContent()).toBe('Moderation settings saved');
  const calls = panel.getByTestId('block-callbacks');
  await expect.poll(() => calls.textContent()).toContain('No calls yet');

  // The Administrator puts it On rotation; a respondent answers every page.
  await server.app.db
    .updateTable('projects')
    .set({ status: ProjectStatus.OnRotation })
    .where('id', '=', pid)
    .execute();
  const respondent = await browser.newContext({ locale: 'en', viewport: { width: 360, height: 760 } });
  const survey = await respondent.newPage();
  await survey.goto(`${server.url}/s/${link}`);
  for (const q of ['q1', 'q2', 'q3', 'q4']) {
    await survey.getByRole('heading', { level: 1, name: q }).waitFor();
    await survey.getByRole('main').getByLabel('A', { exact: true }).check();
    await survey.getByRole('button', { name: 'Next' }).click();
  }
  await survey.getByRole('heading', { name: 'Thank you!' }).waitFor();
  await respondent.close();

  // The panel reads the block's deliveries every few seconds.
  await expect.poll(() => calls.locator('li[data-status="delivered"]').count(), { timeout: 20_000 }).toBe(1);
  expect(await calls.locator('li').first().textContent()).toContain('Delivered');
  expect(await calls.locator('li').first().textContent()).toContain('Answer: 200');
  expect(receiver.received).toHaveLength(1);
  const body = JSON.parse(receiver.received[0].body);
  expect(body).toMatchObject({ event: 'block.completed', block: { id: 'B1' }, project: { id: pid } });
  expect(body.answers.map((a: { questionId: string }) => a.questionId)).toEqual(['q1', 'q2']);

  // "Send a test call": a second delivery, marked as a test.
  await calls.getByRole('button', { name: 'Send a test call' }).click();
  await expect.poll(() => calls.getByRole('status').textContent()).toBe('The test call is queued');
  await expect.poll(() => calls.locator('li[data-status="delivered"]').count(), { timeout: 20_000 }).toBe(2);
  expect(await calls.locator('li').first().textContent()).toContain('test');
  expect(JSON.parse(receiver.received[1].body).test).toBe(true);
  if (process.env.SHOTS) await page.screenshot({ path: '/tmp/callbacks-panel-1440.png' });
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 360, height: 760 });
  await calls.scrollIntoViewIfNeeded();
  if (process.env.SHOTS) await calls.screenshot({ path: '/tmp/callbacks-panel-360.png' });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  expect(await calls.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  expect(errors).toEqual([]);
  await page.context().close();
}, 180_000);
