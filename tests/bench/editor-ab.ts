import { chromium, type CDPSession, type Page } from 'playwright-core';
import { startServer } from '../server/helpers';
import { insertProject, saveProject } from '../server/content-helpers';
import { bigProject } from '../unit/content-fixtures';
import { Role } from '../../src/domain/roles';

// A development aid for a shared, busy machine: two builds of the editor (A and B, e.g. before and
// after a change) open side by side in one browser on the 1 000-question project, and the editor
// bench's select and edit steps alternate between them round by round, so that both meet the same
// load. Prints the medians of each, in wall time and in main-thread CPU time (CDP's ThreadTime
// metric: what a busy machine inflates least). `npx tsx tests/bench/editor-ab.ts <distA> <distB> [rounds]`.

async function threadMs(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as {
    metrics: { name: string; value: number }[];
  };
  return (metrics.find((m) => m.name === 'ThreadTime')?.value ?? NaN) * 1000;
}

const SELECT = async () => {
  const rows = () => [...document.querySelectorAll<HTMLElement>('[role="treeitem"][data-kind="question"]')];
  const times: number[] = [];
  for (let i = 0; i < 6; i++) {
    await new Promise((r) => requestAnimationFrame(r));
    const row = rows()[(i * 7) % rows().length];
    const t = performance.now();
    row.click();
    await new Promise((r) => {
      const ch = new MessageChannel();
      ch.port1.onmessage = r;
      ch.port2.postMessage(0);
    });
    times.push(performance.now() - t);
  }
  return times;
};

async function editOnce(page: Page, i: number): Promise<{ committed: number; settled: number }> {
  const field = page.getByRole('textbox', { name: /New name/ });
  await field.fill(`Edited ${i} ${Math.random()}`);
  return field.evaluate(async (el) => {
    await new Promise((r) => requestAnimationFrame(r));
    const t = performance.now();
    el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await new Promise((r) => {
      const ch = new MessageChannel();
      ch.port1.onmessage = r;
      ch.port2.postMessage(0);
    });
    const committed = performance.now() - t;
    // Until the problem list shows this content (a mark the side panel sets), if the build has it.
    const marked = () => performance.getEntriesByName('editor:problems').some((m) => m.startTime > t);
    const until = performance.now() + 500;
    while (!marked() && performance.now() < until) await new Promise((r) => setTimeout(r, 1));
    const last = performance.getEntriesByName('editor:problems').at(-1);
    return { committed, settled: last && last.startTime > t ? last.startTime - t : NaN };
  });
}

/** In the page from its start: when the canvas is ready, two frames after the attribute appears. */
const READY = `
new MutationObserver((_, o) => {
  if (document.querySelector('[role="region"][data-ready]')) {
    o.disconnect();
    requestAnimationFrame(() => requestAnimationFrame(() => (window.__ready = performance.now())));
  }
}).observe(document, { subtree: true, childList: true, attributes: true });
`;

const med = (xs: number[]) => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.floor(s.length / 2)] * 10) / 10 : NaN;
};

async function main() {
  const [distA, distB, roundsArg] = process.argv.slice(2);
  const rounds = Number(roundsArg ?? 6);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  const servers = [];
  try {
    const pages: Page[] = [];
    const sessions: CDPSession[] = [];
    const urls: string[] = [];
    for (const dist of [distA, distB]) {
      const server = await startServer((c) => {
        c.staticDir = dist;
      });
      servers.push(server);
      const org = await server.createOrganization();
      const researcher = await server.as(Role.Researcher, { organizationId: org });
      const pid = await insertProject(server, org, { name: 'Thousand questions' });
      await saveProject(server, researcher, pid, bigProject(), 0);
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
      await context.addInitScript(READY);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
      sessions.push(cdp);
      await page.goto(`${server.url}/project?pid=${pid}`);
      await page.locator('[role="region"][data-complete]').waitFor({ timeout: 60_000 });
      pages.push(page);
      urls.push(`${server.url}/project?pid=${pid}`);
    }
    const sel: number[][] = [[], []];
    const com: number[][] = [[], []];
    const set: number[][] = [[], []];
    const selCpu: number[][] = [[], []];
    const reopen: number[][] = [[], []];
    const editCpu: number[][] = [[], []];
    for (let r = 0; r < rounds; r++) {
      for (const k of r % 2 ? [1, 0] : [0, 1]) {
        await pages[k].bringToFront();
        await pages[k].goto(urls[k]);
        await pages[k].waitForFunction(() => (window as unknown as { __ready?: number }).__ready, null, {
          timeout: 60_000,
        });
        reopen[k].push(await pages[k].evaluate(() => (window as unknown as { __ready: number }).__ready));
        await pages[k].locator('[role="region"][data-complete]').waitFor({ timeout: 60_000 });
        let t0 = await threadMs(sessions[k]);
        sel[k].push(...(await pages[k].evaluate(SELECT)).slice(1));
        selCpu[k].push(((await threadMs(sessions[k])) - t0) / 6);
        await pages[k].locator('[role="treeitem"][data-kind="question"]').nth(2).dblclick();
        t0 = await threadMs(sessions[k]);
        const e = await editOnce(pages[k], r);
        editCpu[k].push((await threadMs(sessions[k])) - t0);
        com[k].push(e.committed);
        set[k].push(e.settled);
      }
    }
    for (const k of [0, 1])
      console.log(
        `${k ? 'B' : 'A'}: reopen ${med(reopen[k])} ms [${reopen[k]
          .map((x) => Math.round(x))
          .sort((a, b) => a - b)
          .join(' ')}]; select ${med(sel[k])} ms (n=${sel[k].length}) [${sel[k]
          .map((x) => Math.round(x))
          .sort((a, b) => a - b)
          .join(
            ' ',
          )}] CPU ${med(selCpu[k])} ms/click; edit committed ${med(com[k])} ms, CPU ${med(editCpu[k])} ms (fill + Enter), edit with problems shown ${med(set[k])} ms (n=${com[k].length})`,
      );
  } finally {
    await browser.close();
    for (const s of servers) await s.close();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
