import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  axeFull,
  axeLines,
  launchBrowser,
  newAuditPage,
  newContext,
  signIn,
  startApp,
  watchErrors,
} from './helpers';
import type { TestServer } from '../server/helpers';
import { startMailSink, type MailSink } from '../server/mail-sink';
import enGuides from '../../src/i18n/en/guides';

// A demo researcher's first day in Chromium (issue 15): the account made through POST /researcher
// and confirmed through the mailed link signs in, sees the account guide once (real slides, captions
// as alt text, keyboard), finds the example project ready, is told in the projects menu what a demo
// account cannot do, opens the guide again from Help, and opens the example in the editor.

const captions = enGuides.captions;
const PASSWORD = 'demo-pass-1';

describe('demo researcher first day', () => {
  let server: TestServer;
  let sink: MailSink;
  let browser: Browser;

  beforeAll(async () => {
    sink = await startMailSink();
    server = await startApp((c) => {
      c.smtpUrl = sink.url;
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await sink?.close();
  });

  async function newDemoResearcher(email: string): Promise<void> {
    const res = await server.call('POST', '/researcher', { body: { email, fullname: 'Dana Demo' } });
    expect(res.status).toBe(201);
    const mail = await sink.waitFor(email);
    const set = await server.call('POST', '/user/password-reset', {
      body: { token: mail.token, password: PASSWORD },
    });
    expect(set.status).toBe(200);
  }

  /** The editor shows a question: as text, or as the value of its text field. */
  const questionShown = (page: Page, text: string) =>
    page.waitForFunction(
      (t) =>
        document.body.innerText.includes(t) ||
        [...document.querySelectorAll('input, textarea')].some(
          (e) => (e as HTMLInputElement | HTMLTextAreaElement).value === t,
        ),
      text,
    );

  const slideLoaded = (page: Page) =>
    page
      .getByRole('dialog')
      .getByRole('img')
      .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 1280);

  it('sees the guide once, finds the example project, and is told what a demo account cannot do', async () => {
    await newDemoResearcher('dana@example.org');
    const context = await newContext(browser, 'en');
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, server, 'dana@example.org', PASSWORD);

    const guide = page.getByRole('dialog', { name: 'Welcome to your account' });
    await guide.waitFor();
    const img = guide.getByRole('img');
    expect(await img.getAttribute('alt')).toBe(captions.lkDemoResearcher.s1);
    expect(await img.getAttribute('src')).toBe('/guides/lk/demo-researcher/en/1.webp');
    await expect.poll(() => slideLoaded(page)).toBe(true);
    expect(await guide.getByText(captions.lkDemoResearcher.s1).count()).toBe(1);

    // Keyboard: the right arrow goes on, Escape is 'Do by myself'.
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => img.getAttribute('alt')).toBe(captions.lkDemoResearcher.s2);
    await expect.poll(() => slideLoaded(page)).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => guide.count()).toBe(0);

    // Once: not again after a reload or another sign-in in this browser.
    await page.reload();
    await page.getByRole('link', { name: 'Questionnaires' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Example: a player survey' });
    await row.waitFor();
    expect(await guide.count()).toBe(0);

    // The menu does not offer what the server refuses, and says why.
    await row.getByRole('button', { name: /actions for project/i }).click();
    const send = page.getByRole('menuitem', { name: /Send for moderation/ });
    await send.waitFor();
    expect(await send.getAttribute('aria-disabled')).toBe('true');
    expect(await send.textContent()).toContain('A demo account cannot send a project for moderation');
    expect(await page.getByRole('menuitem', { name: /Get survey link/ }).getAttribute('aria-disabled')).toBe(
      'true',
    );
    await page.keyboard.press('Escape');

    // The example opens in the editor with its questions.
    await row.getByRole('link', { name: 'Open' }).click();
    await page.waitForURL((u) => u.pathname === '/project');
    await questionShown(page, 'How old are you?');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens the account guide again from Help, through to End, in Russian too', async () => {
    await newDemoResearcher('dasha@example.org');
    const context = await newContext(browser, 'ru');
    const page = await context.newPage();
    await signIn(page, server, 'dasha@example.org', PASSWORD);
    const guide = page.getByRole('dialog');
    await guide.waitFor();
    await guide.getByRole('button', { name: 'Сделаю сам' }).click();
    await expect.poll(() => guide.count()).toBe(0);

    const ru = (await import('../../src/i18n/ru/guides')).default.captions.lkDemoResearcher;
    await page.getByRole('button', { name: 'Справка по странице' }).click();
    await guide.waitFor();
    for (let n = 1; n <= 6; n++) {
      const img = guide.getByRole('img');
      await expect.poll(() => img.getAttribute('alt')).toBe(ru[`s${n}` as keyof typeof ru]);
      expect(await img.getAttribute('src')).toBe(`/guides/lk/demo-researcher/ru/${n}.webp`);
      await expect.poll(() => slideLoaded(page)).toBe(true);
      if (n < 6) await guide.getByRole('button', { name: 'Далее' }).click();
    }
    await guide.getByRole('button', { name: 'Завершить' }).click();
    await expect.poll(() => guide.count()).toBe(0);
    await context.close();
  });

  it('has no serious accessibility violations in the guide dialog', async () => {
    await newDemoResearcher('audit@example.org');
    const page = await newAuditPage(browser);
    await signIn(page, server, 'audit@example.org', PASSWORD);
    await page.getByRole('dialog', { name: 'Welcome to your account' }).waitFor();
    await expect.poll(() => slideLoaded(page)).toBe(true);
    expect(axeLines(await axeFull(page))).toEqual([]);
    await page.context().close();
  });

  it("opens the editor's guide from the editor's help tool", async () => {
    await newDemoResearcher('editor@example.org');
    const context = await newContext(browser, 'en');
    await context.addInitScript(() =>
      localStorage.setItem('app-helpers', JSON.stringify({ 'lk/demo-researcher': 1 })),
    );
    const page = await context.newPage();
    await signIn(page, server, 'editor@example.org', PASSWORD);
    await page.getByRole('link', { name: 'Questionnaires' }).click();
    await page.getByRole('row').filter({ hasText: 'Example' }).getByRole('link', { name: 'Open' }).click();
    await questionShown(page, 'How old are you?');
    const help = page.getByRole('toolbar').getByRole('button', { name: /^Help/ });
    // The editor does not offer a demo account what the server refuses (its 403 would sign out).
    for (const name of [/^Send for moderation/, /^Get survey link/]) {
      const tool = page.getByRole('toolbar').getByRole('button', { name }).first();
      expect((await tool.isDisabled()) || (await tool.getAttribute('aria-disabled')) === 'true').toBe(true);
    }
    await help.click();
    const guide = page.getByRole('dialog', { name: 'How to build a survey in the editor' });
    await guide.waitFor();
    expect(await guide.getByRole('img').getAttribute('alt')).toBe(captions.projectEditorDefault.s1);
    expect(await guide.getByRole('img').getAttribute('src')).toBe('/guides/project-editor/default/en/1.webp');
    await context.close();
  });
});
