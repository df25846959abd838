import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { chromium, type Page } from 'playwright-core';
import { startServer } from '../server/helpers';
import { insertProject } from '../server/content-helpers';
import { bigProject } from '../unit/content-fixtures';
import { newAnswer } from '../../src/domain/content/factory';
import { writeContent } from '../../server/repos/content';
import { Role } from '../../src/domain/roles';
import type { BenchResult } from './run';

// The item panel on a 1 000-question project (50 blocks × 20, 5 answers each) in Chromium, with the
// production build (DESIGN.md 7): opening a question's panel (a click in the outline until the panel
// of that question is laid out), a keystroke in an answer (the input event until laid out), and
// pasting 50 lines as 50 answers (one edit; the paste event until the 50 rows are laid out). Timed
// inside the page, median of the runs. PANELS_DIST reuses an existing build.

export const title = 'Item panels (Chromium, 1 000 questions)';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.floor(s.length / 2)] * 100) / 100;
};

/** Runs `act` in the page and answers the milliseconds until `done` holds and the page is laid out. */
function timeInPage(page: Page, act: string, done: string): Promise<number> {
  return page.evaluate(
    async ({ act, done }) => {
      const check = new Function(done) as () => boolean;
      const t0 = performance.now();
      new Function(act)();
      for (let i = 0; i < 50 && !check(); i++) await Promise.resolve();
      while (!check()) await new Promise((r) => requestAnimationFrame(r));
      void document.body.offsetHeight;
      return performance.now() - t0;
    },
    { act, done },
  );
}

export default async function panelsBench(): Promise<BenchResult[]> {
  let outDir = process.env.PANELS_DIST;
  if (!outDir) {
    outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-bench-panels-'));
    const previousEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    await build({ logLevel: 'warn', mode: 'production', build: { outDir, emptyOutDir: true } });
    process.env.NODE_ENV = previousEnv;
  }
  const server = await startServer((c) => {
    c.staticDir = outDir;
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const org = await server.createOrganization();
    const session = await server.as(Role.Researcher, { organizationId: org });
    const pid = await insertProject(server, org, { name: 'Bench' });
    const content = bigProject();
    // The first question gets one empty answer: the list of 50 lines is pasted into it.
    content.questionnaires[0].blocks[0].questions[0].answers = [newAnswer({ id: 'empty', text: '' })];
    await writeContent(server.app.db, pid, 0, content, session.user.id);
    const auth = JSON.stringify({
      accessToken: session.accessToken,
      refreshToken: session.refreshToken,
      userId: session.user.id,
    });
    const context = await browser.newContext({
      serviceWorkers: 'block',
      locale: 'en',
      viewport: { width: 1440, height: 900 },
    });
    await context.addInitScript((value) => localStorage.setItem('auth', value), auth);
    const page = await context.newPage();
    await page.goto(`${server.url}/project?pid=${pid}`);
    await page.locator('[role="treeitem"][data-kind="question"]').nth(12).waitFor({ timeout: 60_000 });

    // Opening a question's panel: alternate between outline rows so each click mounts a new panel.
    const open: number[] = [];
    for (let run = 0; run < 24; run++) {
      const k = 1 + (run % 12);
      open.push(
        await timeInPage(
          page,
          `window.__row = document.querySelectorAll('[role="treeitem"][data-kind="question"]')[${k}];
           window.__row.click();`,
          `return !!document.querySelector('[data-panel="question"][data-question-id="' + window.__row.dataset.id + '"]');`,
        ),
      );
    }

    // A keystroke in an answer of the open question (question 2: five answers).
    await page.locator('[role="treeitem"][data-kind="question"]').nth(1).click();
    await page.locator('[data-panel="question"] [data-answer-input]').first().focus();
    const keys: number[] = [];
    for (let run = 0; run < 40; run++) {
      keys.push(
        await timeInPage(
          page,
          `const el = document.activeElement;
           const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
           window.__v = el.value + 'x';
           set.call(el, window.__v);
           el.dispatchEvent(new Event('input', { bubbles: true }));`,
          `return document.activeElement.value === window.__v;`,
        ),
      );
    }

    // Pasting 50 lines into the empty answer of question 1; undone between runs.
    await page.locator('[role="treeitem"][data-kind="question"]').nth(0).click();
    const paste: number[] = [];
    const lines = Array.from({ length: 50 }, (_, i) => `Pasted answer ${i + 1}`).join('\n');
    for (let run = 0; run < 7; run++) {
      await page.locator('[data-answer-input="empty"]').focus();
      paste.push(
        await timeInPage(
          page,
          `const data = new DataTransfer();
           data.setData('text/plain', ${JSON.stringify(lines)});
           document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));`,
          `return document.querySelectorAll('[data-panel="question"] [data-answer-input]').length === 50;`,
        ),
      );
      await page.locator('[data-tool="undo"]').first().click();
      await page.waitForFunction(
        () => document.querySelectorAll('[data-panel="question"] [data-answer-input]').length === 1,
      );
    }
    return [
      {
        name: 'open a question’s panel',
        value: median(open),
        unit: 'ms',
        budget: 50,
        note: `${open.length} runs, outline click to panel laid out`,
      },
      {
        name: 'keystroke in an answer',
        value: median(keys),
        unit: 'ms',
        budget: 16,
        note: `${keys.length} runs`,
      },
      {
        name: 'paste 50 answers (one edit)',
        value: median(paste),
        unit: 'ms',
        budget: 50,
        note: `${paste.length} runs, paste to 50 rows laid out`,
      },
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}
