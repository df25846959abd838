// Dexie reads the IndexedDB API when it loads: the fake must come first.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { AppDB, type Draft } from '../../src/db/AppDB';
import { readDraft, storedDraftOf, writeDraft } from '../../src/db/drafts';
import { readEarly } from '../../src/db/earlyRead';
import type { ChangeLogRow } from '../../src/domain/content/changelog';
import { bigProject } from './content-fixtures';

// The first script's read of the local copy (issue 25, the editor reopening from it): plain
// IndexedDB, beside the start-up, before Dexie has arrived. It must read what Dexie wrote exactly
// as readDraft does, and never create or hold the database Dexie opens and upgrades.

let n = 0;
const name = () => `early-read-${++n}`;

function draft(pid: number, userId: number): Draft {
  return {
    pid,
    userId,
    content: bigProject({ blocks: 2, questions: 3, answers: 2 }),
    baseVersion: 4,
    updatedAt: 1_700_000_000_000,
    dirty: true,
    project: {
      pid,
      name: 'P',
      type: 1,
      template: 'default',
      status: 1,
      editable: true,
      permissions: { blockSettings: false, customParams: false },
    },
  };
}
const logRow = (pid: number, seq: number): ChangeLogRow => ({
  pid,
  seq,
  code: '008',
  at: 1_700_000_000_000 + seq,
  payload: { label: `q${seq}`, kind: 'edit' },
});

describe('the local copy read by the first script', () => {
  it('reads the draft, its change-log in order and the cached layout as Dexie wrote them', async () => {
    const dbName = name();
    const db = new AppDB(dbName);
    // Rows written out of order and another project's beside them.
    await writeDraft(db, { draft: draft(7, 1), rows: [logRow(7, 2), logRow(7, 1)], clearUpTo: null });
    await writeDraft(db, { draft: draft(8, 1), rows: [logRow(8, 1)], clearUpTo: null });
    await writeDraft(db, { draft: draft(7, 1), rows: [logRow(7, 3)], clearUpTo: null });
    const positions = { q1: { x: 1, y: 2 } };
    await db.layouts.put({ pid: 7, key: 'k', positions, updatedAt: 1 });

    const early = await readEarly(dbName, 7);
    expect(early).not.toBeNull();
    expect(early!.layout).toMatchObject({ pid: 7, key: 'k', positions });
    const viaEarly = storedDraftOf(early!.draft, early!.rows, 1);
    const viaDexie = await readDraft(db, 7, 1);
    expect(viaEarly.rows.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(viaEarly.rows).toEqual(viaDexie.rows);
    expect(viaEarly.lastSeq).toBe(viaDexie.lastSeq);
    expect(viaEarly.draft?.content).toEqual(viaDexie.draft?.content);
    expect(viaEarly.draft?.baseVersion).toBe(4);
    // Another user's draft is not theirs to see, as with readDraft.
    expect(storedDraftOf(early!.draft, early!.rows, 2)).toEqual({ draft: null, rows: [], lastSeq: 3 });
    db.close();
  });

  it('a project never opened here reads no draft', async () => {
    const dbName = name();
    const db = new AppDB(dbName);
    await writeDraft(db, { draft: draft(7, 1), rows: [], clearUpTo: null });
    const early = await readEarly(dbName, 9);
    expect(early).toEqual({ draft: undefined, rows: [], layout: undefined });
    db.close();
  });

  it('answers null without creating the database when there is none, and Dexie then opens it', async () => {
    const dbName = name();
    expect(await readEarly(dbName, 7)).toBeNull();
    expect((await indexedDB.databases()).some((d) => d.name === dbName)).toBe(false);
    const db = new AppDB(dbName);
    await writeDraft(db, { draft: draft(7, 1), rows: [logRow(7, 1)], clearUpTo: null });
    expect((await readDraft(db, 7, 1)).lastSeq).toBe(1);
    db.close();
  });

  it('answers null for a database of an older shape, and does not stand in the way of its upgrade', async () => {
    const dbName = name();
    // Version 1 of the app's database (Dexie's version 1 is IndexedDB's 10): no layouts table yet.
    await new Promise<void>((done) => {
      const open = indexedDB.open(dbName, 10);
      open.onupgradeneeded = () => {
        open.result.createObjectStore('drafts', { keyPath: 'pid' });
        const log = open.result.createObjectStore('changeLog', { keyPath: 'id', autoIncrement: true });
        log.createIndex('pid', 'pid');
        log.createIndex('[pid+seq]', ['pid', 'seq']);
      };
      open.onsuccess = () => {
        open.result.close();
        done();
      };
    });
    expect(await readEarly(dbName, 7)).toBeNull();
    // Dexie upgrades it (version 2 adds the layouts) with nothing of ours left open.
    const db = new AppDB(dbName);
    await db.layouts.put({ pid: 7, key: 'k', positions: {}, updatedAt: 1 });
    expect(await readEarly(dbName, 7)).toMatchObject({ layout: { key: 'k' } });
    db.close();
  });
});
