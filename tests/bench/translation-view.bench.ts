import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { chromium, type Page } from 'playwright-core';
import { startServer } from '../server/helpers';
import { insertProject, saveProject } from '../server/content-helpers';
import { bigProject } from '../unit/content-fixtures';
import { Role } from '../../src/domain/roles';
import type { ProjectContent } from '../../src/domain/content/model';
import type { BenchResult } from './run';

// The translation view (issue 32) on a 1 000-question project in two languages (Russian and
// English, every other question translated: 6 000 texts), in Chromium on the production build:
// opening the view from the language switch until its first rows are drawn, and a keystroke in a
// translation until React has rendered it. The same run measures a keystroke in the side panel's
// question text (the budget says "as fast as in the panels") and a click on an outline row, so a
// loaded machine shows in the references too. BENCH_DIST=<dir> reuses an existing build.

export const title = 'Translation view (1 000 questions, 2 languages, Chromium)';

const med = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.floor(s.length / 2)] * 10) / 10;
};

function bilingual(): ProjectContent {
  const c = bigProject();
  c.languages = ['ru', 'en'];
  let i = 0;
  for (const b of c.questionnaires[0].blocks)
    for (const q of b.questions)
      if (i++ % 2 === 0) {
        q.translations = { en: { text: `English ${q.text}` } };
        for (const a of q.answers) a.translations = { en: { text: `EN ${a.text}` } };
      }
  return c;
}

/** Types `count` characters into the field, one input event each, timing each until React has rendered it. */
async function typeTimed(page: Page, selector: string, count: number): Promise<number[]> {
  return page.evaluate(
    async ({ selector, count }) => {
      const el = document.querySelector<HTMLInputElement | HTMLTextAreaElement>(selector)!;
      el.focus();
      const proto =
        el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
      const setValue = Object.getOwnPropertyDescriptor(proto, 'value')!.set!;
      const times: number[] = [];
      for (let i = 0; i < count; i++) {
        const t = performance.now();
        setValue.call(el, el.value + 'abcdefghij'[i % 10]);
        el.dispatchEvent(new Event('input', { bubbles: true }));
        // React renders the change in the event's task; a macrotask later it has committed.
        await new Promise((r) => {
          const ch = new MessageChannel();
          ch.port1.onmessage = r;
          ch.port2.postMessage(0);
        });
        times.push(performance.now() - t);
        await new Promise((r) => requestAnimationFrame(r));
      }
      return times.slice(3);
    },
    { selector, count },
  );
}

export default async function translationViewBench(): Promise<BenchResult[]> {
  let outDir = process.env.BENCH_DIST;
  if (!outDir) {
    outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-bench-dist-'));
    const previousEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    await build({ logLevel: 'warn', mode: 'production', build: { outDir, emptyOutDir: true } });
    process.env.NODE_ENV = previousEnv;
  }
  const dist = outDir;
  const server = await startServer((c) => {
    c.staticDir = dist;
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const org = await server.createOrganization();
    const researcher = await server.as(Role.Researcher, { organizationId: org });
    const pid = await insertProject(server, org, { name: 'Thousand questions, two languages' });
    const saved = await saveProject(server, researcher, pid, bilingual(), 0);
    if (saved.status !== 200) throw new Error(`fixture not saved: ${saved.status}`);
    const auth = JSON.stringify({
      accessToken: researcher.accessToken,
      refreshToken: researcher.refreshToken,
      userId: researcher.user.id,
    });
    const context = await browser.newContext({
      serviceWorkers: 'block',
      locale: 'en',
      viewport: { width: 1440, height: 900 },
    });
    await context.addInitScript((value) => localStorage.setItem('auth', value), auth);
    await context.addInitScript('window.__name = (f) => f');
    const page = await context.newPage();
    await page.goto(`${server.url}/project?pid=${pid}`);
    await page.getByRole('tree', { name: 'Questionnaire outline' }).waitFor();
    await page.locator('[data-tool="undo"]').waitFor();

    // Reference: a click on an outline row until React has rendered it (the page's own cost of a click).
    const select = await page.evaluate(async () => {
      const rows = () => [
        ...document.querySelectorAll<HTMLElement>('[role="treeitem"][data-kind="question"]'),
      ];
      const times: number[] = [];
      for (let i = 0; i < 10; i++) {
        const t = performance.now();
        rows()[i % rows().length].click();
        await new Promise((r) => {
          const ch = new MessageChannel();
          ch.port1.onmessage = r;
          ch.port2.postMessage(0);
        });
        times.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 50));
      }
      return times.slice(2);
    });

    // Reference: a keystroke in the side panel's question text (the budget's "as in the panels").
    await page.locator('[data-panel="question"] textarea').first().waitFor();
    const panelTyping = await typeTimed(page, '[data-panel="question"] textarea', 30);

    // Opening the translation view: the menu item's click until its first rows are drawn (two frames).
    const opens: number[] = [];
    for (let i = 0; i < 5; i++) {
      await page.getByRole('button', { name: /^Text language:/ }).click();
      const item = page.getByRole('menuitem', { name: /^Translation view/ });
      await item.waitFor();
      const ms = await item.evaluate(async (el) => {
        const t = performance.now();
        (el as HTMLElement).click();
        while (!document.querySelector('[data-translation-view] textarea[data-unit]'))
          await new Promise((r) => setTimeout(r, 1));
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        return performance.now() - t;
      });
      opens.push(ms);
      await page.getByRole('button', { name: 'Close translation view' }).click();
      await page.locator('[data-translation-view]').waitFor({ state: 'detached' });
    }

    // A keystroke in a translation.
    await page.getByRole('button', { name: /^Text language:/ }).click();
    await page.getByRole('menuitem', { name: /^Translation view/ }).click();
    await page.locator('[data-translation-view] textarea[data-unit]').nth(1).waitFor();
    const typing = await typeTimed(page, '[data-translation-view] textarea[data-unit^="q."]', 30);
    const units = await page.locator('[data-translation-view] [data-progress]').textContent();

    return [
      {
        name: 'open the translation view (click to first rows drawn)',
        value: med(opens),
        unit: 'ms',
        budget: 500,
        note: `median of 5; ${units}; rows in the DOM: virtualised`,
      },
      {
        name: 'keystroke in a translation (input to rendered)',
        value: med(typing),
        unit: 'ms',
        budget: 16,
        note: 'median of 27',
      },
      {
        name: 'reference: keystroke in the side panel’s question text, same run',
        value: med(panelTyping),
        unit: 'ms',
        budget: 16,
        note: 'median of 27',
      },
      {
        name: 'reference: click on an outline row (to rendered), same run',
        value: med(select),
        unit: 'ms',
        note: 'median of 8',
      },
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}
