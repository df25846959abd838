// Dexie reads the IndexedDB API when it loads: the fake must come first.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { AppDB } from '../../src/db/AppDB';
import { structureOf } from '../../src/views/editor/canvas/elements';
import { positionsFor, prefetchLayout } from '../../src/workers/layoutClient';
import { layout } from '../../src/workers/layout';
import { bigProject } from './content-fixtures';

// The canvas's positions cache (Dexie table `layouts`): a structure laid out before opens with its
// stored positions, and the read a page starts before the project arrives (prefetchLayout) is the
// one the canvas takes, once, for that project only.

let n = 0;
const fresh = () => new AppDB(`layout-cache-${++n}`);

describe('cached positions', () => {
  it('lays out once, then opens from the cache; a changed structure lays out again', async () => {
    const db = fresh();
    const s = structureOf(bigProject({ blocks: 3, questions: 4 }));
    const first = await positionsFor(db, 1, s);
    expect(first.cached).toBe(false);
    expect(first.positions).toEqual(layout(s));
    await expect.poll(() => db.layouts.get(1)).toBeTruthy();
    const again = await positionsFor(db, 1, s);
    expect(again).toMatchObject({ cached: true, positions: first.positions });
    const other = structureOf(bigProject({ blocks: 4, questions: 4 }));
    expect((await positionsFor(db, 1, other)).cached).toBe(false);
  });

  it('takes a read started early for the same project once; another project reads its own', async () => {
    const db = fresh();
    const s = structureOf(bigProject({ blocks: 2, questions: 2 }));
    await positionsFor(db, 5, s);
    await expect.poll(() => db.layouts.get(5)).toBeTruthy();
    // Read early; the row is gone before the canvas asks: the early read's answer is what it gets.
    prefetchLayout(db, 5);
    await new Promise((r) => setTimeout(r, 20));
    await db.layouts.delete(5);
    expect((await positionsFor(db, 5, s)).cached).toBe(true);
    // Once only: the next call reads anew (and lays out, the row being gone).
    await db.layouts.delete(5);
    expect((await positionsFor(db, 5, s)).cached).toBe(false);
    // An early read of another project is not used for this one.
    await expect.poll(() => db.layouts.get(5)).toBeTruthy();
    await positionsFor(db, 6, s);
    await expect.poll(() => db.layouts.get(6)).toBeTruthy();
    prefetchLayout(db, 6);
    await new Promise((r) => setTimeout(r, 20));
    await db.layouts.delete(5);
    expect((await positionsFor(db, 5, s)).cached).toBe(false);
  });
});
