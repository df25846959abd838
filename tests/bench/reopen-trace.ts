import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type CDPSession, type Page } from 'playwright-core';
import { startServer } from '../server/helpers';
import { insertProject, saveProject } from '../server/content-helpers';
import { bigProject } from '../unit/content-fixtures';
import { Role } from '../../src/domain/roles';
import { launchReopenBrowser, reopenFixture, reopenInNewTab, type ReopenFixture } from './reopen-tab';

// A development aid, not a benchmark: the editor bench's "reopen from the local copy, every answer
// of the server delayed 2 s" (1 000 questions, /api/ held 2 s through CDP Fetch, the HTTP cache
// warm), with a Chromium trace of each reopen, broken down from navigation start to the outline's
// first frame: the main thread's time by kind of work (script fetch waits, compile, module
// evaluation, JS by chunk, GC, IndexedDB, style, layout, paint…), and the network requests' ends.
// With two builds (A/B) the reopens alternate, so a shared machine's load meets both alike.
// `npx tsx tests/bench/reopen-trace.ts <distA> [distB] [rounds]`; TRACE_DUMP=1 writes the last
// trace of each build to the temp directory. NEW_TAB=1 traces the reopen as a user does it instead
// (issue 34): a new tab of the same profile, GET /project alone held 2 s (reopen-tab.ts), up to
// the first task after the frame that drew the first question row.

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown> & { name?: string; data?: Record<string, unknown> };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

/** Self time by file and function, and inclusive time by function, of the samples before `cut` (trace clock). */
function summariseProfile(p: Profile, cut: number): Map<string, number>[] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const file = new Map<string, number>();
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  const name = (n: ProfileNode) =>
    `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop() || ''}:${n.callFrame.lineNumber + 1}`;
  let t = p.startTime;
  p.samples.forEach((id, i) => {
    t += p.timeDeltas[i];
    if (t > cut) return;
    const ms = (p.timeDeltas[i + 1] ?? 0) / 1000;
    const n = byId.get(id)!;
    if (n.callFrame.functionName === '(idle)' || n.callFrame.functionName === '(program)') {
      add(file, n.callFrame.functionName, ms);
      return;
    }
    add(file, n.callFrame.url.split('/').pop() || '(native)', ms);
    add(self, name(n), ms);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = name(byId.get(cur)!);
      if (seen.has(k)) continue;
      seen.add(k);
      add(incl, k, ms);
    }
  });
  return [file, self, incl];
}

const OBSERVE = () => {
  const w = window as unknown as { __outline?: number };
  let saw = false;
  const observer = new MutationObserver(() => {
    if (!saw && document.querySelector('[role="treeitem"][data-kind="question"]')) {
      saw = true;
      performance.mark('outline-dom');
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          w.__outline = performance.now();
          performance.mark('outline-shown');
          // Told through the console: a wait from Playwright would evaluate its own script in the
          // page while it loads.
          console.debug('bench:outline');
        }),
      );
      observer.disconnect();
    }
  });
  observer.observe(document, { subtree: true, childList: true });
};

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'v8.execute',
  'blink.user_timing',
  'loading',
  'toplevel',
  'IndexedDB',
  'blink',
].join(',');

async function traced(
  cdp: CDPSession,
  fn: () => Promise<void>,
  categories = CATEGORIES,
): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  const session = cdp as unknown as {
    on(event: string, f: (e: { value: TraceEvent[] }) => void): void;
    off(event: string, f: (e: { value: TraceEvent[] }) => void): void;
    once(event: string, f: () => void): void;
  };
  const collect = (e: { value: TraceEvent[] }) => events.push(...e.value);
  session.on('Tracing.dataCollected', collect);
  await cdp.send('Tracing.start', { categories, transferMode: 'ReportEvents' });
  await fn();
  const complete = new Promise<void>((r) => session.once('Tracing.tracingComplete', () => r()));
  await cdp.send('Tracing.end');
  await complete;
  session.off('Tracing.dataCollected', collect);
  return events;
}

/** Buckets of the main thread's time, each top-level task's nested events attributed to the innermost known kind. */
function breakdown(events: TraceEvent[], outline: number) {
  const mark = (name: string) => events.filter((e) => e.name === name && e.cat.includes('user_timing'));
  const shown = mark('outline-shown').at(-1);
  if (!shown) return null;
  const mainKeys = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  // The renderer that navigated: its main thread holds the marks.
  const key = `${shown.pid}:${shown.tid}`;
  if (!mainKeys.has(key)) return null;
  // The page's time origin on the trace's clock: the mark was set at performance.now() = outline.
  const from = shown.ts - outline * 1000;
  const to = shown.ts;
  const onMain = events
    .filter((e) => `${e.pid}:${e.tid}` === key && e.ph === 'X' && e.dur !== undefined)
    .filter((e) => e.ts < to && e.ts + e.dur! > from)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const kinds: [RegExp, string][] = [
    [/^(MinorGC|MajorGC|V8\.GC.*|BlinkGC.*|ScavengerTask|.*GCFinalize.*|CppGC.*)$/, 'GC'],
    [
      /^(v8\.compile|V8\.CompileCode|v8\.compileModule|V8\.CompileLazy.*|CompileScript|V8\.ScriptCompiler)/,
      'compile',
    ],
    [/^(v8\.parseOnBackground|V8\.ParseFunction|V8\.Parse.*|ParseHTML)$/, 'parse'],
    [/^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet|UpdateLayerTree)$/, 'style'],
    [/^(Layout|LayoutShift|IntersectionObserverController.*)$/, 'layout'],
    [/^(Paint|PaintImage|Layerize|PrePaint|Commit|CompositeLayers|UpdateLayer|RasterTask)$/, 'paint'],
    [/IndexedDB|IDB/, 'IndexedDB'],
    [
      /^(v8\.evaluateModule|EvaluateScript|v8\.run|FunctionCall|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|V8\.Execute|v8\.callFunction|XHRReadyStateChange|ResourceReceivedData|ParseScriptOnBackground)$/,
      'script',
    ],
  ];
  const kindOf = (e: TraceEvent) => kinds.find(([re]) => re.test(e.name))?.[1] ?? null;
  const totals = new Map<string, number>();
  const byName = new Map<string, number>();
  const scripts = new Map<string, number>();
  // Self time: walk a stack of open events; each microsecond goes to the innermost event that has a kind.
  type Open = { e: TraceEvent; end: number; kind: string; self: number; childStart: number };
  const stack: Open[] = [];
  const close = (until: number) => {
    while (stack.length && stack[stack.length - 1].end <= until) {
      const o = stack.pop()!;
      const clippedEnd = Math.min(o.end, to);
      const own = Math.max(0, clippedEnd - Math.max(o.childStart, from));
      o.self += own;
      totals.set(o.kind, (totals.get(o.kind) ?? 0) + o.self);
      byName.set(o.e.name, (byName.get(o.e.name) ?? 0) + o.self);
      if (stack.length) stack[stack.length - 1].childStart = o.end;
    }
  };
  let busy = 0;
  let cpu = 0;
  let lastTaskEnd = from;
  for (const e of onMain) {
    close(e.ts);
    const end = e.ts + e.dur!;
    if (stack.length === 0) {
      // a top-level event: the task's time counts as busy
      const s = Math.max(e.ts, lastTaskEnd, from);
      const t = Math.min(end, to);
      if (t > s) busy += t - s;
      // Thread time (CPU) of the task, in the share of its wall time inside the window.
      if (t > s && e.tdur !== undefined && e.dur) cpu += (e.tdur * (t - s)) / e.dur;
      lastTaskEnd = Math.max(lastTaskEnd, end);
    }
    const parent = stack[stack.length - 1];
    if (parent) {
      // the parent's own time up to this child
      parent.self += Math.max(0, Math.min(e.ts, to) - Math.max(parent.childStart, from));
    }
    const kind = kindOf(e) ?? parent?.kind ?? 'other';
    if (
      e.name === 'v8.evaluateModule' ||
      e.name === 'EvaluateScript' ||
      e.name === 'v8.compile' ||
      e.name === 'v8.compileModule'
    ) {
      const d = e.args?.data as { url?: string; fileName?: string } | undefined;
      const url = d?.url ?? d?.fileName ?? '';
      const file = url.split('/').pop() ?? '';
      if (file)
        scripts.set(
          `${e.name} ${file}`,
          (scripts.get(`${e.name} ${file}`) ?? 0) + Math.min(end, to) - Math.max(e.ts, from),
        );
    }
    stack.push({ e, end, kind, self: 0, childStart: e.ts });
  }
  close(Infinity);
  // Network: when each request finished, relative to navigation.
  const finishes = events
    .filter((e) => e.name === 'ResourceFinish' || e.name === 'ResourceSendRequest')
    .map((e) => ({
      name: e.name,
      url: String(e.args?.data?.url ?? e.args?.data?.requestId ?? ''),
      at: (e.ts - from) / 1000,
    }));
  const sends = new Map<string, string>();
  for (const e of events.filter((x) => x.name === 'ResourceSendRequest'))
    sends.set(String(e.args?.data?.requestId), String(e.args?.data?.url ?? ''));
  const net = events
    .filter((e) => e.name === 'ResourceFinish')
    .map((e) => ({
      url: (sends.get(String(e.args?.data?.requestId)) ?? '').split('/').pop() ?? '',
      at: Math.round((e.ts - from) / 100) / 10,
    }))
    .filter((x) => x.at < (to - from) / 1000);
  const sent = finishes
    .filter((x) => x.name === 'ResourceSendRequest' && x.at >= 0 && x.at < (to - from) / 1000)
    .map((x) => ({ url: x.url.split('/').pop() ?? '', at: Math.round(x.at * 10) / 10 }));
  const marks = events
    .filter((e) => e.cat.includes('user_timing') && e.ts >= from && e.ts <= to && e.ph !== 'M')
    .map((e) => `${e.name}@${Math.round((e.ts - from) / 1000)}`);
  return {
    total: (to - from) / 1000,
    busy: busy / 1000,
    cpu: cpu / 1000,
    totals: Object.fromEntries([...totals].map(([k, v]) => [k, Math.round(v / 100) / 10])),
    byName: new Map([...byName].map(([k, v]) => [k, v / 1000])),
    scripts: [...scripts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`),
    net,
    sent,
    marks,
  };
}

async function setUp(browser: import('playwright-core').Browser, dist: string) {
  const server = await startServer((c) => {
    c.staticDir = dist;
  });
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
  await context.addInitScript(OBSERVE);
  // IDB_PROBE=1: an IndexedDB open at document start, to tell its latency from when it is asked.
  if (process.env.IDB_PROBE)
    await context.addInitScript(() => {
      const t = performance.now();
      const r = indexedDB.open('survey-backoffice');
      r.onsuccess = () => {
        performance.measure('probe:idb-open', { start: t });
        r.result.close();
      };
    });
  const page: Page = await context.newPage();
  const url = `${server.url}/project?pid=${pid}`;
  await page.goto(`${server.url}/projects`);
  await page.getByRole('heading').first().waitFor();
  for (let i = 0; i < 2; i++) {
    await page.goto(url);
    await page.locator('[role="region"][data-complete]').waitFor({ timeout: 60_000 });
  }
  // The autosave leaves the copy; then every call to the server is held 2 s.
  await page.waitForTimeout(1500);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*/api/*', requestStage: 'Request' }] });
  cdp.on('Fetch.requestPaused', ({ requestId }) => {
    setTimeout(() => void cdp.send('Fetch.continueRequest', { requestId }).catch(() => {}), 2000);
  });
  return { server, page, cdp, url };
}

async function main() {
  const args = process.argv.slice(2);
  const dists = args.filter((a) => !/^\d+$/.test(a));
  const rounds = Number(args.find((a) => /^\d+$/.test(a)) ?? 5);
  if (process.env.NEW_TAB) {
    const browser = await launchReopenBrowser();
    await newTabRounds(browser, dists, rounds);
    await browser.close();
    return;
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  const setups = [];
  try {
    for (const d of dists) setups.push(await setUp(browser, d));
    const results: ReturnType<typeof breakdown>[][] = setups.map(() => []);
    const profiles: Map<string, number>[][][] = setups.map(() => []);
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 ? [...setups.keys()].reverse() : [...setups.keys()];
      for (const k of order) {
        const { page, cdp, url } = setups[k];
        await page.bringToFront();
        // FROM=<path>: each reopen comes from that page of the app (e.g. /projects), not the editor.
        if (process.env.FROM) {
          await page.goto(new URL(process.env.FROM, url).href);
          await page.waitForTimeout(300);
        }
        const profiling = !!process.env.PROFILE;
        if (profiling) {
          await cdp.send('Profiler.enable');
          await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
          await cdp.send('Profiler.start');
        }
        const events = await traced(cdp, async () => {
          await Promise.all([
            page.waitForEvent('console', { predicate: (m) => m.text() === 'bench:outline', timeout: 60_000 }),
            page.goto(url),
          ]);
        });
        if (profiling) {
          const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
          const cut = events.find((e) => e.name === 'outline-shown' && e.cat.includes('user_timing'))?.ts;
          profiles[k].push(summariseProfile(profile, cut ?? Infinity));
          if (process.env.TRACE_DUMP && r === rounds - 1)
            fs.writeFileSync(
              path.join(os.tmpdir(), `reopen-profile-${k}.cpuprofile`),
              JSON.stringify(profile),
            );
        }
        if (process.env.TRACE_DUMP && r === rounds - 1)
          fs.writeFileSync(
            path.join(os.tmpdir(), `reopen-trace-${k}.json`),
            JSON.stringify({ traceEvents: events }),
          );
        const outline = await page.evaluate(() => (window as unknown as { __outline: number }).__outline);
        results[k].push(breakdown(events, outline));
        if (process.env.MEASURES || r === rounds - 1)
          console.log(
            `${dists[k]} measures: ` +
              (
                await page.evaluate(() =>
                  [
                    ...performance.getEntriesByType('measure'),
                    ...performance.getEntriesByName('editor:opened-at-start'),
                  ].map((m) => `${m.name} ${Math.round(m.startTime)}+${Math.round(m.duration)}`),
                )
              ).join(' | '),
          );
        // The held answers arrive before the next reopen.
        await page.waitForTimeout(2300);
      }
    }
    report(dists, results, profiles);
  } finally {
    await browser.close();
    for (const s of setups) await s.server.close();
  }
}

const med = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.floor(s.length / 2)] * 10) / 10;
};

/** The reopen in a new tab (NEW_TAB=1), builds alternating round by round. */
async function newTabRounds(browser: import('playwright-core').Browser, dists: string[], rounds: number) {
  const fixtures: ReopenFixture[] = [];
  try {
    for (const d of dists) fixtures.push(await reopenFixture(browser, d));
    const results: ReturnType<typeof breakdown>[][] = fixtures.map(() => []);
    const times: number[][] = fixtures.map(() => []);
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 ? [...fixtures.keys()].reverse() : [...fixtures.keys()];
      for (const k of order) {
        let events: TraceEvent[] = [];
        // NO_TRACE=1: the times alone (tracing costs the loaded machine's browser time too).
        const t = await reopenInNewTab(fixtures[k], async (_page, cdp, go) => {
          if (process.env.NO_TRACE) return go();
          // PROFILE=1: V8's sampling profiler in the trace (the page's process is new in a new tab,
          // so the Profiler domain of a session opened before the navigation would not see it).
          events = await traced(
            cdp,
            go,
            process.env.PROFILE ? `${CATEGORIES},disabled-by-default-v8.cpu_profiler` : CATEGORIES,
          );
        });
        if (process.env.TRACE_DUMP && !process.env.NO_TRACE && r === rounds - 1)
          fs.writeFileSync(
            path.join(os.tmpdir(), `reopen-tab-trace-${k}.json`),
            JSON.stringify({ traceEvents: events }),
          );
        console.log(
          `${dists[k]}: row ${Math.round(t.row)} painted ${Math.round(t.rowPainted)}, GET /project asked ${Math.round(t.projectAsked)}, note "${t.noteAtRow.split(':')[0]}", checking until the answer: ${t.checkingUntilAnswer}`,
        );
        if (process.env.MEASURES) console.log(`  measures: ${t.measures.join(' | ')}`);
        times[k].push(t.rowPainted);
        if (!process.env.NO_TRACE) results[k].push(breakdown(events, t.rowPainted));
      }
    }
    times.forEach((ts, k) =>
      console.log(`${dists[k]}: first row painted, median ${med(ts)} ms [${ts.map(Math.round).join(' ')}]`),
    );
    if (!process.env.NO_TRACE) report(dists, results, []);
  } finally {
    for (const f of fixtures) await f.close();
  }
}

function report(
  dists: string[],
  results: ReturnType<typeof breakdown>[][],
  profiles: Map<string, number>[][][],
) {
  {
    results.forEach((rs, k) => {
      const ok = rs.filter((x): x is NonNullable<typeof x> => x !== null);
      console.log(`\n=== ${dists[k]} (${ok.length} of ${rs.length} traces) ===`);
      console.log(
        `outline shown: median ${med(ok.map((x) => x.total))} ms [${ok.map((x) => Math.round(x.total)).join(' ')}]`,
      );
      console.log(
        `main thread CPU: median ${med(ok.map((x) => x.cpu))} ms [${ok.map((x) => Math.round(x.cpu)).join(' ')}]`,
      );
      console.log(
        `main thread busy: median ${med(ok.map((x) => x.busy))} ms [${ok.map((x) => Math.round(x.busy)).join(' ')}]`,
      );
      const kinds = new Set(ok.flatMap((x) => Object.keys(x.totals)));
      for (const kind of kinds)
        console.log(`  ${kind.padEnd(10)} ${med(ok.map((x) => x.totals[kind] ?? 0))} ms`);
      const last = ok.at(-1);
      if (last) {
        const names = new Set(ok.flatMap((x) => [...x.byName.keys()]));
        const rows = [...names]
          .map((n) => [n, med(ok.map((x) => x.byName.get(n) ?? 0))] as const)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 30);
        console.log('by event (self, median ms): ' + rows.map(([n, v]) => `${n} ${v}`).join(' | '));
        console.log('last: scripts: ' + last.scripts.join(' | '));
        console.log('last: marks: ' + last.marks.join(' '));
        console.log('last: requests sent (ms): ' + last.sent.map((n) => `${n.url}@${n.at}`).join(' '));
        console.log('last: requests finished (ms): ' + last.net.map((n) => `${n.url}@${n.at}`).join(' '));
      }
      const ps = profiles[k] ?? [];
      if (ps.length) {
        for (const [i, title] of [
          'by file (self)',
          'by function (self)',
          'by function (inclusive)',
        ].entries()) {
          const keys = new Set(ps.flatMap((p) => [...p[i].keys()]));
          const rows = [...keys]
            .map((key) => [key, med(ps.map((p) => p[i].get(key) ?? 0))] as const)
            .sort((a, b) => b[1] - a[1])
            .slice(0, i === 2 ? Number(process.env.PROFILE_TOP ?? 60) : 25);
          console.log(
            `-- ${title}, median ms\n` +
              rows.map(([key, v]) => `  ${v.toFixed(1).padStart(6)}  ${key}`).join('\n'),
          );
        }
      }
    });
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
