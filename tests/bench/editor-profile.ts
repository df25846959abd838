import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { chromium, type CDPSession, type Page } from 'playwright-core';
import { startServer } from '../server/helpers';
import { insertProject, saveProject } from '../server/content-helpers';
import { bigProject } from '../unit/content-fixtures';
import { Role } from '../../src/domain/roles';

// A development aid, not a benchmark: the editor on the 1 000-question project, with Chromium's CPU
// profiler (CDP) around the bench's select and edit loops, printing where the time goes by function
// (self time) and by source file. Unminified production build so the names read.
// `npx tsx tests/bench/editor-profile.ts [select|edit|open]`; PROFILE_DIST=<dir> reuses a build.

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Marks in the sample stream: a measured window runs from a sample in __benchStart to one in __benchEnd. */
const MARKS = `
window.__benchStart = function __benchStart() { const t = performance.now(); while (performance.now() - t < 0.5); };
window.__benchEnd = function __benchEnd() { const t = performance.now(); while (performance.now() - t < 0.5); };
`;

function summarise(p: Profile, label: string, runs: number) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inFn = (id: number, name: string) => {
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur))
      if (byId.get(cur)!.callFrame.functionName === name) return true;
    return false;
  };
  // Only the samples inside measured windows (after a __benchStart, up to the next __benchEnd), if any.
  const marked = p.samples.some((id) => inFn(id, '__benchStart'));
  let inside = !marked;
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => {
    if (marked) {
      if (inFn(id, '__benchStart')) {
        inside = true;
        return;
      }
      if (inFn(id, '__benchEnd')) {
        inside = false;
        return;
      }
    }
    if (inside) self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i + 1] ?? 0) / 1000);
  });
  const fnSelf = new Map<string, number>();
  const fileSelf = new Map<string, number>();
  const total = new Map<string, number>();
  for (const [id, ms] of self) {
    const n = byId.get(id)!;
    const f = n.callFrame;
    const file = f.url.split('/').pop() || '(native)';
    const key = `${f.functionName || '(anon)'} ${file}:${f.lineNumber + 1}`;
    fnSelf.set(key, (fnSelf.get(key) ?? 0) + ms);
    fileSelf.set(file, (fileSelf.get(file) ?? 0) + ms);
    // inclusive: each distinct ancestor frame key once per sample
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const cf = byId.get(cur)!.callFrame;
      const k = `${cf.functionName || '(anon)'} ${cf.url.split('/').pop() || ''}:${cf.lineNumber + 1}`;
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + ms);
    }
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `  ${(v / runs).toFixed(2).padStart(7)} ms  ${k}`)
      .join('\n');
  console.log(`\n=== ${label}: per run (${runs} runs) ===`);
  console.log('-- by file (self)\n' + top(fileSelf, 15));
  console.log('-- by function (self)\n' + top(fnSelf, 30));
  console.log('-- by function (inclusive)\n' + top(total, 40));
  const app = new Map(
    [...total].filter(
      ([k]) => /^[A-Z_a-z$][\w$]* (EditorPage|Canvas)-/.test(k) && !/^(CRp|elesfn|styfn)/.test(k),
    ),
  );
  console.log('-- app functions (inclusive)\n' + top(app, 40));
}

async function profiled(cdp: CDPSession, label: string, runs: number, fn: () => Promise<void>) {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  await fn();
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
  fs.writeFileSync(path.join(os.tmpdir(), `editor-${label}.cpuprofile`), JSON.stringify(profile));
  summarise(profile, label, runs);
}

async function main() {
  const what = process.argv[2] ?? 'select';
  let dist = process.env.PROFILE_DIST;
  if (!dist) {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-profile-dist-'));
    process.env.NODE_ENV = 'production';
    await build({
      logLevel: 'warn',
      mode: 'production',
      build: { outDir: dist, emptyOutDir: true, minify: false },
    });
    console.log(`build in ${dist}`);
  }
  const outDir = dist;
  const server = await startServer((c) => {
    c.staticDir = outDir;
  });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
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
    await context.addInitScript(MARKS);
    const page: Page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const url = `${server.url}/project?pid=${pid}`;
    await page.goto(`${server.url}/projects`);
    await page.getByRole('heading').first().waitFor();
    const open = async () => {
      await page.goto(url);
      await page.locator('[role="region"][data-complete]').waitFor({ timeout: 60_000 });
    };
    await open();
    if (what === 'open') {
      await open();
      await profiled(cdp, 'reopen', 1, async () => {
        await page.goto(url);
        await page.locator('[role="region"][data-ready]').waitFor({ timeout: 60_000 });
      });
      return;
    }
    if (what === 'select') {
      await profiled(cdp, 'select', 12, async () => {
        await page.evaluate(async () => {
          const rows = () => [
            ...document.querySelectorAll<HTMLElement>('[role="treeitem"][data-kind="question"]'),
          ];
          const w = window as unknown as { __benchStart(): void; __benchEnd(): void };
          for (let i = 0; i < 12; i++) {
            w.__benchStart();
            rows()[i % rows().length].click();
            await new Promise((r) => {
              const ch = new MessageChannel();
              ch.port1.onmessage = r;
              ch.port2.postMessage(0);
            });
            w.__benchEnd();
            await new Promise((r) => setTimeout(r, 50));
          }
        });
      });
      return;
    }
    const times: number[] = [];
    await profiled(cdp, 'edit', 8, async () => {
      for (let i = 0; i < 8; i++) {
        await page.locator('[role="treeitem"][data-kind="question"]').nth(2).dblclick();
        const field = page.getByRole('textbox', { name: /New name/ });
        await field.fill(`Edited ${i}`);
        times.push(
          await field.evaluate(async (el) => {
            const w = window as unknown as { __benchStart(): void; __benchEnd(): void };
            w.__benchStart();
            const t = performance.now();
            el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
            await new Promise((r) => {
              const ch = new MessageChannel();
              ch.port1.onmessage = r;
              ch.port2.postMessage(0);
            });
            const took = performance.now() - t;
            w.__benchEnd();
            return took;
          }),
        );
      }
    });
    console.log('edit times', times.map((t) => t.toFixed(1)).join(' '));
  } finally {
    await browser.close();
    await server.close();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
