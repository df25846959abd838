import { loadavg } from 'node:os';
import { chromium, type Page } from 'playwright-core';
import { startServer } from '../server/helpers';
import { insertProject } from '../server/content-helpers';
import { productionBuild } from './pages';
import type { BenchResult } from './run';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import { writeContent } from '../../server/repos/content';
import { insertRespondents, sampleContent, sampleRespondents } from '../../server/reports/sample';
import { refreshSpeeders } from '../../server/responses/speeders';

// /responses in Chromium at 100 000 respondents (issue 31: "a table that stays smooth at 100 000"):
// the time from navigation to the first rows; the frames while the list scrolls fast (150 px a frame)
// and while it is flung through (600 px a frame, about 800 rows a second), against the same rows as
// a static list of 1 000 (no virtual list, nothing fetched) and the page standing still, in the same
// run (headless Chromium without a GPU on a shared machine: only the comparison means something); the
// longest task meanwhile; and how soon the rows show after a jump (the scroll bar dragged there).
// Production build on SQLite; service workers blocked.

export const title = 'Respondents page: /responses at 100 000 respondents (Chromium)';

const COUNT = 100_000;
const FRAMES = 150;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
const round = (x: number) => Math.round(x * 10) / 10;

/** Frame intervals over `frames` animation frames, scrolling `selector`'s box by `step` px each frame. */
function frames(page: Page, step: number, selector = '[data-respondents-scroller]') {
  return page.evaluate(
    async ({ step, count, selector }) => {
      const el = document.querySelector<HTMLElement>(selector)!;
      const intervals: number[] = [];
      const long: number[] = [];
      const observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) long.push(e.duration);
      });
      observer.observe({ type: 'longtask' });
      await new Promise<void>((resolve) => {
        let last = 0;
        let i = 0;
        const tick = (t: number) => {
          if (last) intervals.push(t - last);
          last = t;
          if (i++ >= count) return resolve();
          el.scrollTop += step;
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
      observer.disconnect();
      return { intervals, long };
    },
    { step, count: FRAMES, selector },
  );
}

/**
 * The reference, in the same page: the rows on screen copied into a static list of 1 000 rows (the
 * same markup and styles, no virtual list, no React, nothing fetched) in a box of the same size,
 * flung the same way: what the browser needs to scroll these rows at all.
 */
async function plainTable(page: Page, step: number) {
  await page.evaluate(() => {
    const el = document.querySelector<HTMLElement>('[data-respondents-scroller]')!;
    const copy = el.cloneNode(true) as HTMLElement;
    const table = copy.querySelector<HTMLElement>('[role="table"]')!;
    const body = copy.querySelectorAll<HTMLElement>('[role="rowgroup"]')[1];
    const rows = [...body.querySelectorAll<HTMLElement>('[data-respondent]')];
    body.replaceChildren();
    for (let i = 0; i < 1000; i++) {
      const tr = rows[i % rows.length].cloneNode(true) as HTMLElement;
      tr.style.top = `${40 + i * 44}px`;
      body.append(tr);
    }
    table.style.height = `${40 + 1000 * 44}px`;
    const r = el.getBoundingClientRect();
    Object.assign(copy.style, {
      position: 'fixed',
      left: `${r.left}px`,
      top: `${r.top}px`,
      width: `${r.width}px`,
      height: `${r.height}px`,
      zIndex: '100',
    });
    copy.setAttribute('data-plain-copy', '');
    document.body.append(copy);
    copy.scrollTop = 0;
  });
  const measured = await frames(page, step, '[data-plain-copy]');
  await page.evaluate(() => document.querySelector('[data-plain-copy]')?.remove());
  return measured;
}

/** Milliseconds from setting the scroll position to the real rows being there (no placeholder left). */
function jump(page: Page, share: number) {
  return page.evaluate(async (share) => {
    const el = document.querySelector<HTMLElement>('[data-respondents-scroller]')!;
    const start = performance.now();
    el.scrollTop = Math.floor(el.scrollHeight * share);
    for (;;) {
      await new Promise((r) => requestAnimationFrame(r));
      const rows = el.querySelectorAll('[data-respondent]').length;
      const waiting = el.querySelectorAll('[role="row"][aria-busy]').length;
      if (rows > 5 && waiting === 0) return performance.now() - start;
      if (performance.now() - start > 20_000) return Infinity;
    }
  }, share);
}

export default async function responsesPageBench(): Promise<BenchResult[]> {
  const { dist } = await productionBuild();
  const saved = process.env.TEST_DATABASE_URL;
  delete process.env.TEST_DATABASE_URL;
  const server = await startServer((c) => {
    c.staticDir = dist;
  });
  if (saved !== undefined) process.env.TEST_DATABASE_URL = saved;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const org = await server.createOrganization();
    const session = await server.as(Role.Researcher, { organizationId: org });
    const pid = await insertProject(server, org, { status: ProjectStatus.OnRotation, name: 'Bench' });
    const content = sampleContent();
    await writeContent(server.app.db, pid, 0, content, session.user.id);
    // The list reads the respondents' own rows: their answers are left out to keep the fixture quick.
    for (let i = 0; i < COUNT; i += 10_000)
      await insertRespondents(
        server.app.db,
        pid,
        content.questionnaires[0].id,
        sampleRespondents(i, 10_000, content).map((p) => ({ ...p, answers: [] })),
      );
    await refreshSpeeders(server.app.db, pid);
    const auth = JSON.stringify({
      accessToken: session.accessToken,
      refreshToken: session.refreshToken,
      userId: session.user.id,
    });

    const firstRows: number[] = [];
    let scrolling = { intervals: [] as number[], long: [] as number[] };
    let wheel = { intervals: [] as number[], long: [] as number[] };
    let still = { intervals: [] as number[], long: [] as number[] };
    let plain = { intervals: [] as number[], long: [] as number[] };
    const jumps: number[] = [];
    for (let run = 0; run < 3; run++) {
      const context = await browser.newContext({
        serviceWorkers: 'block',
        locale: 'ru',
        viewport: { width: 1440, height: 900 },
      });
      await context.addInitScript((value) => localStorage.setItem('auth', value), auth);
      // tsx names the functions it compiles (esbuild's keepNames): the page gets the helper it calls.
      await context.addInitScript({ content: 'window.__name = (f) => f;' });
      const page = await context.newPage();
      const start = Date.now();
      await page.goto(`${server.url}/responses?pid=${pid}`);
      await page.locator('[data-respondent]').first().waitFor({ timeout: 30_000 });
      firstRows.push(Date.now() - start);
      if (run === 0) {
        await page.waitForLoadState('networkidle');
        still = await frames(page, 0);
        wheel = await frames(page, 150);
        scrolling = await frames(page, 600);
        plain = await plainTable(page, 600);
      }
      jumps.push(await jump(page, [0.5, 0.25, 0.9][run]));
      await context.close();
    }
    return [
      {
        name: `navigation to the first rows (${COUNT.toLocaleString('en')} respondents)`,
        value: median(firstRows),
        unit: 'ms',
        note: `median of 3, cold browser context each: ${firstRows.join(', ')} ms`,
      },
      {
        name: 'scrolling fast (150 px a frame, 9 000 px/s): frame interval, median',
        value: round(median(wheel.intervals)),
        unit: 'ms',
        note: `p95 ${round(p95(wheel.intervals))} ms, ${wheel.intervals.filter((x) => x > 33.4).length} of ${wheel.intervals.length} frames over 33 ms, the longest task ${round(Math.max(0, ...wheel.long))} ms`,
      },
      {
        name: 'flinging through the list: frame interval, median',
        value: round(median(scrolling.intervals)),
        unit: 'ms',
        note: `${FRAMES} frames at 600 px each; reference in the same run, the same rows as a static list of 1 000: ${round(median(plain.intervals))} ms; the page standing still: ${round(median(still.intervals))} ms`,
      },
      {
        name: 'flinging through the list: frame interval, p95',
        value: round(p95(scrolling.intervals)),
        unit: 'ms',
        note: `${scrolling.intervals.filter((x) => x > 33.4).length} of ${scrolling.intervals.length} frames over 33 ms; reference, the static list: p95 ${round(p95(plain.intervals))} ms, ${plain.intervals.filter((x) => x > 33.4).length} over 33 ms; standing still: p95 ${round(p95(still.intervals))} ms`,
      },
      {
        name: 'flinging through the list: longest task',
        value: round(Math.max(0, ...scrolling.long)),
        unit: 'ms',
        note: `${scrolling.long.length} tasks over 50 ms reported by the browser (the static list: ${plain.long.length}, the longest ${round(Math.max(0, ...plain.long))} ms; standing still: ${still.long.length}); the machine's load average during the run: ${loadavg()
          .map((x) => x.toFixed(1))
          .join(', ')}`,
      },
      {
        name: 'a jump to the middle, a quarter, nine tenths: rows shown',
        value: round(median(jumps)),
        unit: 'ms',
        note: `median of 3: ${jumps.map((x) => Math.round(x)).join(', ')} ms (one or two list pages fetched)`,
      },
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}
