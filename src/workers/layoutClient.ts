import type { AppDB, LayoutRow } from '../db/AppDB';
import { layout } from './layout';
import {
  structureKey,
  type LayoutRequest,
  type LayoutResponse,
  type LayoutStructure,
  type Positions,
} from './layoutProtocol';

// The page's side of the layout worker, with the Dexie cache (table `layouts`, one row per
// project): a structure laid out before, on this browser, opens with its stored positions and the
// worker is not asked. Without Worker support (old browsers, tests) the layout runs in place.

let worker: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, (p: Positions) => void>();

function getWorker(): Worker | null {
  if (worker || typeof Worker === 'undefined') return worker;
  worker = new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });
  worker.onmessage = (e: MessageEvent<LayoutResponse>) => {
    const done = waiting.get(e.data.id);
    waiting.delete(e.data.id);
    done?.(e.data.positions);
  };
  return worker;
}

export function layoutInWorker(structure: LayoutStructure): Promise<Positions> {
  const w = getWorker();
  if (!w) return Promise.resolve(layout(structure));
  const id = ++nextId;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    w.postMessage({ type: 'layout', id, structure } satisfies LayoutRequest);
  });
}

/** The cached row's read for the project a page was opened on, started before its content arrives. */
let early: { db: AppDB; pid: number; at: number; row: Promise<LayoutRow | undefined> } | null = null;
const FRESH_MS = 10_000;

/**
 * Starts reading a project's cached positions now (opening /project straight away: beside the
 * project's fetch, not after it); the first positionsFor for the same project takes the answer.
 * `read` is that row's read when it is already under way (the first script's, earlyRead.ts).
 */
export function prefetchLayout(
  db: AppDB,
  pid: number,
  read: Promise<LayoutRow | undefined> = db.layouts.get(pid),
): void {
  const row = read;
  row.catch(() => {});
  early = { db, pid, at: Date.now(), row };
}

function cachedRow(db: AppDB, pid: number) {
  const e = early;
  early = null;
  return e && e.db === db && e.pid === pid && Date.now() - e.at < FRESH_MS ? e.row : db.layouts.get(pid);
}

export interface LaidOut {
  key: string;
  positions: Positions;
  cached: boolean;
}

/** Positions for a structure: from the cache when it was laid out before, else from the worker (then stored). */
export async function positionsFor(db: AppDB, pid: number, structure: LayoutStructure): Promise<LaidOut> {
  // User Timing marks (editor:layout, editor:layout-cached) let the benchmarks read what it cost.
  const start = performance.now();
  const key = structureKey(structure);
  try {
    const row = await cachedRow(db, pid);
    if (row && row.key === key) {
      performance.measure('editor:layout-cached', { start });
      return { key, positions: row.positions, cached: true };
    }
  } catch {
    /* no IndexedDB: lay out every time */
  }
  const positions = await layoutInWorker(structure);
  performance.measure('editor:layout', { start });
  db.layouts.put({ pid, key, positions, updatedAt: Date.now() }).catch(() => {});
  return { key, positions, cached: false };
}
