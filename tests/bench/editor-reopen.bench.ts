import fs from 'node:fs';
import path from 'node:path';
import { productionBuild } from './pages';
import {
  AWAY_MS,
  floorInNewTab,
  HOLD_MS,
  launchReopenBrowser,
  reopenFixture,
  reopenInNewTab,
  writeFloorPage,
} from './reopen-tab';
import type { BenchResult } from './run';

// The reopen as a user does it (issue 34, part 2): the 1 000-question project, opened before in this
// browser, opened again in a new tab of the same profile (HTTP cache, V8's code cache, IndexedDB,
// the stored sign-in), GET /project held back 2 s through CDP's Fetch domain (reopen-tab.ts). The
// tab before it was closed a few seconds earlier, long enough for Chromium to close the database's
// backing store, as it is when a user comes back. Timed in the page from navigation start. The
// reference, alternating with the reopens in the same run: a new tab opening a static file of the
// same server, to its load event (a new renderer, the navigation, nothing of ours), which says how
// busy the machine was. BENCH_DIST=<dir> reuses an existing build; REOPENS=<n> (default 7). The
// first row is the opening picture's when the head start shows one (db/openingPicture.ts); the live
// editor's own first row, from which the page answers input, is measured beside it.

export const title = 'Editor reopen in a new tab (1 000 questions, Chromium)';

const med = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.floor(s.length / 2)]);
};

export default async function editorReopenBench(): Promise<BenchResult[]> {
  const { dist, remove } = await productionBuild();
  const browser = await launchReopenBrowser();
  const floorPage = writeFloorPage(dist);
  const f = await reopenFixture(browser, dist);
  try {
    const reference: number[] = [];
    const floor: number[] = [];
    const reopens = [];
    const n = Number(process.env.REOPENS ?? 7);
    for (let i = 0; i < n; i++) {
      await new Promise((r) => setTimeout(r, AWAY_MS));
      const tab = await f.context.newPage();
      await tab.goto(`${f.server.url}/icons/icon.svg`);
      reference.push(
        await tab.evaluate(
          () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd,
        ),
      );
      await tab.close();
      floor.push(await floorInNewTab(f, floorPage));
      reopens.push(await reopenInNewTab(f));
    }
    const checking = reopens.filter((r) => r.checkingUntilAnswer).length;
    const readEnd = reopens.map((r) => {
      const m = r.measures.find((x) => x.startsWith('editor:local-read '));
      const [start, dur] = (m?.split(' ')[1] ?? 'NaN+NaN').split('+').map(Number);
      return start + dur;
    });
    return [
      {
        name: `reopen in a new tab, GET /project held ${HOLD_MS / 1000} s: first question row painted`,
        value: med(reopens.map((r) => r.rowPainted)),
        unit: 'ms',
        budget: 300,
        note: `median of ${n}, from navigation to the first task after the frame that drew it [${reopens.map((r) => Math.round(r.rowPainted)).join(' ')}]; ${reopens.filter((r) => r.picture).length} of ${n} in the opening picture`,
      },
      {
        name: 'the same: first question row presented (Element Timing)',
        value: med(reopens.map((r) => r.rowPresented)),
        unit: 'ms',
        budget: 300,
        note: `median of ${n}, from navigation to the presentation of the frame that drew its text (the row's renderTime) [${reopens.map((r) => Math.round(r.rowPresented)).join(' ')}]`,
      },
      {
        name: 'the same: first question row in the page',
        value: med(reopens.map((r) => r.row)),
        unit: 'ms',
        note: `median of ${n}`,
      },
      {
        name: "the same: the live editor's first row painted (the page answers input)",
        value: med(reopens.map((r) => r.liveRowPainted)),
        unit: 'ms',
        note: `median of ${n} [${reopens.map((r) => Math.round(r.liveRowPainted)).join(' ')}], presented at ${med(reopens.map((r) => r.livePresented))} ms; the opening picture is removed in the commit that draws it`,
      },
      {
        name: 'the same: "checking the server for changes" shown with the first row until the answer',
        value: checking,
        unit: 'score',
        budget: n,
        note: `reopens of ${n} (the note the first row came with: ${[...new Set(reopens.map((r) => r.noteAtRow || 'none'))].join(', ')})`,
      },
      {
        name: 'the same: GET /project asked',
        value: med(reopens.map((r) => r.projectAsked)),
        unit: 'ms',
        note: `median of ${n}, from navigation`,
      },
      {
        name: 'the same: the local copy read (IndexedDB)',
        value: med(readEnd),
        unit: 'ms',
        note: `median of ${n}, from navigation to the read's end`,
      },
      {
        name: 'reference: a new tab opening a static page of the same server (the stylesheet, one line): its text presented',
        value: med(floor),
        unit: 'ms',
        note: `median of ${n}, alternating with the reopens, timed as the row is [${floor.map(Math.round).join(' ')}]: the floor for any painted page in a new tab`,
      },
      {
        name: 'reference: a new tab opening a static file of the same server, to its load event',
        value: med(reference),
        unit: 'ms',
        note: `median of ${n}, alternating with the reopens: the machine's floor for any page in a new tab`,
      },
    ];
  } finally {
    await f.close();
    await browser.close();
    if (remove) fs.rmSync(dist, { recursive: true, force: true });
    else fs.rmSync(path.join(dist, floorPage), { force: true });
  }
}
