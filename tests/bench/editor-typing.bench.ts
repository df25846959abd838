import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { startServer, type TestServer } from '../server/helpers';
import { insertProject, saveProject } from '../server/content-helpers';
import { bigProject } from '../unit/content-fixtures';
import { Role } from '../../src/domain/roles';
import type { BenchResult } from './run';

// Typing one character into the first question's text, in our editor (the question panel's text
// field) and in SurveyJS Creator (the question's title on its design surface), given the same
// questionnaire (100 and 1 000 single-choice questions with 5 answers each, in blocks, or pages,
// of 20), in the same Chromium, in alternating runs (issue 34). Two figures per keystroke:
//   - keydown to the next frame: from the keydown's timestamp to the first task after the frame
//     that follows the input event (requestAnimationFrame, then a message), median of 20 keys a run;
//   - main-thread work: from a Chromium trace of 10 more keys, the CPU time of the page's main-thread
//     tasks from the keydown's task to the end of the first frame painted after the input (issue 34:
//     ≤ 8 ms, so that the keystroke paints in the next frame).
// SurveyJS is a dev dependency of this bench alone (tests/bench/surveyjs/, built here into a
// temporary folder, served from loopback; docs/decisions.md). TYPING_DIST reuses our build;
// TYPING_BEFORE_DIST adds another build of ours (the one before a change) to the same alternation,
// named TYPING_BEFORE_NAME in the table.

export const title = 'Typing in a question’s text: our editor beside SurveyJS Creator (Chromium)';

const SIZES = [100, 1000];
const ROUNDS = Number(process.env.TYPING_ROUNDS ?? 3);
const KEYS = 20;
const WARMUP = 5;
const TRACED = 10;
/** Between keys: a quick typist's pace, and time for any work a key leaves behind. */
const GAP_MS = 150;
const PEER = 'SurveyJS Creator 2.5.43';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.floor(s.length / 2)] * 10) / 10 : NaN;
};
const range = (xs: number[]) =>
  `${Math.round(Math.min(...xs) * 10) / 10}–${Math.round(Math.max(...xs) * 10) / 10}`;

/**
 * In the page before anything else: the keydown's time, and the first task after the frame that
 * follows the input event it caused (the frame shows the character).
 */
const MEASURE = () => {
  const w = window as unknown as { __keys: number[]; __keydown: number };
  w.__keys = [];
  addEventListener('keydown', (e) => (w.__keydown = e.timeStamp), true);
  addEventListener(
    'input',
    () => {
      const t0 = w.__keydown;
      requestAnimationFrame(() => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => w.__keys.push(performance.now() - t0);
        ch.port2.postMessage(0);
      });
    },
    true,
  );
};

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time of a complete event. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { type?: string } };
}

/**
 * Main-thread work per keystroke from a trace of `type`: the keydown's task to the end of the first
 * painted frame after its input, as the thread's CPU time and as the tasks' wall time.
 */
async function traceKeys(
  cdp: CDPSession,
  type: () => Promise<void>,
): Promise<{ cpu: number[]; wall: number[] }> {
  const events: TraceEvent[] = [];
  const session = cdp as unknown as {
    on(event: string, f: (e: { value: TraceEvent[] }) => void): void;
    once(event: string, f: () => void): void;
  };
  session.on('Tracing.dataCollected', (e) => events.push(...e.value));
  await cdp.send('Tracing.start', {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'].join(','),
    transferMode: 'ReportEvents',
  });
  await type();
  const complete = new Promise<void>((r) => session.once('Tracing.tracingComplete', () => r()));
  await cdp.send('Tracing.end');
  await complete;
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const onMain = (e: TraceEvent) => mains.has(`${e.pid}:${e.tid}`);
  const spans = events.filter((e) => e.ph === 'X' && e.dur && onMain(e));
  // Top-level tasks only (a RunTask may nest another).
  const all = spans.filter((e) => e.name === 'RunTask').sort((a, b) => a.ts - b.ts);
  const tasks = all.filter(
    (t, i) => !all.slice(0, i).some((o) => o.ts <= t.ts && t.ts + t.dur! <= o.ts + o.dur!),
  );
  const at = (ts: number) => tasks.find((t) => t.ts <= ts && ts < t.ts + t.dur!);
  const dispatches = (type: string) =>
    spans
      .filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === type)
      .map((e) => e.ts)
      .sort((a, b) => a - b);
  const paints = spans.filter((e) => e.name === 'Paint').map((e) => e.ts);
  const inputs = dispatches('input');
  const cpu: number[] = [];
  const wall: number[] = [];
  for (const k of dispatches('keydown')) {
    const first = at(k);
    const input = inputs.find((i) => i >= k);
    if (!first || input === undefined) continue;
    const frame = tasks.find((t) => t.ts > input && paints.some((p) => p >= t.ts && p < t.ts + t.dur!));
    if (!frame) continue;
    const mine = tasks.filter((t) => t.ts >= first.ts && t.ts <= frame.ts);
    // The thread's CPU time (tdur) is the figure: on a shared machine a task's wall time also counts
    // the time the thread waited for a core.
    cpu.push(mine.reduce((sum, t) => sum + (t.tdur ?? t.dur!), 0) / 1000);
    wall.push(mine.reduce((sum, t) => sum + t.dur!, 0) / 1000);
  }
  return { cpu, wall };
}

interface Subject {
  name: string;
  /** Opens the questionnaire of n questions and puts the caret at the end of the first question's text. */
  open(page: Page, n: number): Promise<void>;
}

/** Our editor, a build served by our server, signed in as a researcher with a project per size. */
async function ours(name: string, dist: string): Promise<{ subject: Subject; server: TestServer }> {
  const server = await startServer((c) => {
    c.staticDir = dist;
  });
  const org = await server.createOrganization();
  const researcher = await server.as(Role.Researcher, { organizationId: org });
  const pids = new Map<number, number>();
  for (const n of SIZES) {
    const pid = await insertProject(server, org, { name: `Typing ${n}` });
    const saved = await saveProject(server, researcher, pid, bigProject({ blocks: n / 20 }), 0);
    if (saved.status !== 200) throw new Error(`fixture not saved: ${saved.status}`);
    pids.set(n, pid);
  }
  const auth = JSON.stringify({
    accessToken: researcher.accessToken,
    refreshToken: researcher.refreshToken,
    userId: researcher.user.id,
  });
  return {
    server,
    subject: {
      name,
      async open(page, n) {
        await page.addInitScript((value) => localStorage.setItem('auth', value), auth);
        await page.goto(`${server.url}/project?pid=${pids.get(n)}`);
        // The canvas filled in: nothing of the opening is left to compete with the keys.
        await page.locator('[role="region"][data-complete]').waitFor({ timeout: 120_000 });
        await page.locator('[role="treeitem"][data-kind="question"]').first().click();
        const field = page.locator('[data-panel="question"]').getByRole('textbox', { name: 'Question text' });
        await field.click();
        await page.keyboard.press('Control+End');
      },
    },
  };
}

/** SurveyJS Creator on its bench page, built once and served from loopback. */
async function peer(): Promise<{ subject: Subject; close: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-bench-surveyjs-'));
  const previousEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  await build({
    configFile: false,
    root: path.resolve(path.dirname(new URL(import.meta.url).pathname), 'surveyjs'),
    base: './',
    logLevel: 'error',
    mode: 'production',
    plugins: [react()],
    build: { outDir: dir, emptyOutDir: true, chunkSizeWarningLimit: 10_000 },
  });
  process.env.NODE_ENV = previousEnv;
  const types: Record<string, string> = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.css': 'text/css',
  };
  const server = http.createServer((req, res) => {
    const file = path.join(dir, path.normalize(new URL(req.url ?? '/', 'http://x').pathname));
    const found = file.startsWith(dir) && fs.existsSync(file) && fs.statSync(file).isFile();
    const served = found ? file : path.join(dir, 'index.html');
    res.writeHead(200, { 'content-type': types[path.extname(served)] ?? 'application/octet-stream' });
    fs.createReadStream(served).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    close: async () => {
      await new Promise((r) => server.close(r));
      fs.rmSync(dir, { recursive: true, force: true });
    },
    subject: {
      name: PEER,
      async open(page, n) {
        await page.goto(`${url}?n=${n}`);
        const title = page.locator('.svc-question__content').first().locator('.sv-string-editor').first();
        await title.waitFor({ timeout: 120_000 });
        await title.click();
        // Clicking the title selects its text; the caret goes to its end, as in our field.
        await page.keyboard.press('End');
      },
    },
  };
}

/** One run: a fresh page, the questionnaire opened, KEYS timed keys, then TRACED traced ones. */
async function run(browser: Browser, subject: Subject, n: number) {
  const context = await browser.newContext({
    serviceWorkers: 'block',
    locale: 'en',
    viewport: { width: 1440, height: 900 },
  });
  try {
    await context.addInitScript('window.__name = (f) => f');
    await context.addInitScript(MEASURE);
    const page = await context.newPage();
    await subject.open(page, n);
    // Whatever the opening left for idle time, before the first key.
    await page.waitForTimeout(1500);
    for (let i = 0; i < WARMUP + KEYS; i++) {
      await page.keyboard.type('x');
      await page.waitForTimeout(GAP_MS);
    }
    const keys = (await page.evaluate(() => (window as unknown as { __keys: number[] }).__keys)).slice(
      WARMUP,
    );
    if (keys.length < KEYS) throw new Error(`${subject.name}, ${n}: ${keys.length} of ${KEYS} keys measured`);
    const cdp = await context.newCDPSession(page);
    const work = await traceKeys(cdp, async () => {
      for (let i = 0; i < TRACED; i++) {
        await page.keyboard.type('x');
        await page.waitForTimeout(GAP_MS);
      }
    });
    return { latency: median(keys), keys, work: work.cpu, wall: work.wall };
  } finally {
    await context.close();
  }
}

export default async function editorTypingBench(): Promise<BenchResult[]> {
  let dist = process.env.TYPING_DIST;
  if (!dist) {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-bench-typing-'));
    const previousEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    await build({ logLevel: 'warn', mode: 'production', build: { outDir: dist, emptyOutDir: true } });
    process.env.NODE_ENV = previousEnv;
  }
  const mine = await ours('our editor', dist);
  const before = process.env.TYPING_BEFORE_DIST
    ? await ours(process.env.TYPING_BEFORE_NAME ?? 'our editor before', process.env.TYPING_BEFORE_DIST)
    : null;
  const theirs = await peer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    // Nothing but loopback resolves: a page that reaches for a font or a licence server cannot.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ],
  });
  const subjects = [mine.subject, theirs.subject, ...(before ? [before.subject] : [])];
  const results = new Map<string, { latency: number[]; keys: number[]; work: number[]; wall: number[] }>();
  try {
    for (const n of SIZES)
      for (let round = 0; round < ROUNDS; round++) {
        // Alternating: each subject goes first in turn.
        const order = subjects.map((_, i) => subjects[(i + round) % subjects.length]);
        for (const subject of order) {
          const r = await run(browser, subject, n);
          const key = `${subject.name}|${n}`;
          const acc = results.get(key) ?? { latency: [], keys: [], work: [], wall: [] };
          acc.latency.push(r.latency);
          acc.keys.push(...r.keys);
          acc.work.push(...r.work);
          acc.wall.push(...r.wall);
          results.set(key, acc);
          console.log(
            `  ${subject.name}, ${n}: keydown to next frame ${r.latency} ms, work ${median(r.work)} ms`,
          );
        }
      }
  } finally {
    await browser.close();
    await mine.server.close();
    await before?.server.close();
    await theirs.close();
  }
  const rows: BenchResult[] = [];
  for (const n of SIZES)
    for (const subject of subjects) {
      const r = results.get(`${subject.name}|${n}`)!;
      const isOurs = subject !== theirs.subject;
      rows.push(
        {
          name: `${subject.name}, ${n} questions: keydown to the next frame`,
          value: median(r.keys),
          unit: 'ms',
          budget: isOurs ? 16 : undefined,
          note: `median of ${r.keys.length} keys over ${r.latency.length} alternating runs (run medians ${range(r.latency)})`,
        },
        {
          name: `${subject.name}, ${n} questions: main-thread work per keystroke`,
          value: median(r.work),
          unit: 'ms',
          budget: isOurs ? 8 : undefined,
          note: `thread CPU time, the keydown's task to the first painted frame after the input (Chromium trace), median of ${r.work.length} keys (${range(r.work)}); the same tasks' wall time ${median(r.wall)} ms`,
        },
      );
    }
  return rows;
}
