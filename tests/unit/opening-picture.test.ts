// Dexie reads the IndexedDB API when it loads: the fake must come first.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppDB, type Draft } from '../../src/db/AppDB';
import { deleteDraft, writeDraft } from '../../src/db/drafts';
import { copyStamp, pictureFor, storePicture, widthBand, type Picture } from '../../src/db/openingPicture';
import { forgetPictures } from '../../src/db/pictureKeys';
import { clearAuth } from '../../src/api/storage';
import { BENCH_PROJECT, bigProject } from './content-fixtures';

// The editor's opening picture (issue 34, part 2) is shown by the head start only when it depicts
// the local copy as stored now, for the same user, language and width band. A picture of an older
// copy, of another user's, in another language or width, or after signing out, must never show.

class MemoryStorage {
  private m = new Map<string, string>();
  get length() {
    return this.m.size;
  }
  key(i: number) {
    return [...this.m.keys()][i] ?? null;
  }
  getItem(k: string) {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.m.set(k, String(v));
  }
  removeItem(k: string) {
    this.m.delete(k);
  }
  keys() {
    return [...this.m.keys()];
  }
}

let storage: MemoryStorage;
beforeEach(() => {
  storage = new MemoryStorage();
  (globalThis as { localStorage?: unknown }).localStorage = storage;
});
afterEach(() => {
  delete (globalThis as { localStorage?: unknown }).localStorage;
});

const content = bigProject({ blocks: 2, questions: 3, answers: 2 });
const draft = (pid: number, userId: number, c = content): Draft => ({
  pid,
  userId,
  content: c,
  baseVersion: 1,
  updatedAt: 1_700_000_000_000,
  dirty: false,
  project: { ...BENCH_PROJECT, pid },
});
const picture = (userId: number, c = content, over: Partial<Picture> = {}): Picture => ({
  userId,
  locale: 'en',
  band: widthBand(1440),
  stamp: copyStamp(JSON.stringify(c)),
  bodyClass: 'bg-slate-50',
  html: '<div role="treeitem" data-kind="question">Q1</div>',
  ...over,
});
let n = 0;
const db = () => new AppDB(`opening-picture-${++n}`);
/** A draft written, and the page idle afterwards (the copy's stamp is taken then). */
async function written(d: AppDB, draft: Draft) {
  await writeDraft(d, { draft, rows: [], clearUpTo: null });
  await new Promise((r) => setTimeout(r, 5));
}

describe('the opening picture', () => {
  it('is shown for the copy it depicts, as written by the draft, and no other', async () => {
    const d = db();
    storePicture(3, picture(7));
    // No copy written yet: nothing to depict.
    expect(pictureFor(3, 7, 'en', 1440)).toBeNull();
    await written(d, draft(3, 7));
    expect(pictureFor(3, 7, 'en', 1440)?.html).toContain('Q1');
    // Another user, language, width band, project: not shown.
    expect(pictureFor(3, 8, 'en', 1440)).toBeNull();
    expect(pictureFor(3, 7, 'ru', 1440)).toBeNull();
    expect(pictureFor(3, 7, 'en', 360)).toBeNull();
    expect(pictureFor(4, 7, 'en', 1440)).toBeNull();
    // The copy changed after the picture was taken (an edit written, the page killed before it
    // kept a new picture): the old picture is not shown.
    const edited = structuredClone(content);
    edited.questionnaires[0].name = 'Renamed';
    await written(d, draft(3, 7, edited));
    expect(pictureFor(3, 7, 'en', 1440)).toBeNull();
    storePicture(3, picture(7, edited));
    expect(pictureFor(3, 7, 'en', 1440)).not.toBeNull();
    // The copy deleted: the picture goes with it, and a stamp still waiting for idle time does not
    // bring the copy's stamp back.
    await writeDraft(d, { draft: draft(3, 7, edited), rows: [], clearUpTo: null });
    await deleteDraft(d, 3);
    await new Promise((r) => setTimeout(r, 5));
    expect(storage.getItem('editor-copy:3')).toBeNull();
    expect(pictureFor(3, 7, 'en', 1440)).toBeNull();
    expect(storage.getItem('editor-picture:3')).toBeNull();
    d.close();
  });

  it('is stamped when the page is left right after the write, without waiting for idle time', async () => {
    const hide: Record<string, () => void> = {};
    const g = globalThis as Record<string, unknown>;
    Object.assign(g, {
      window: { addEventListener: (type: string, f: () => void) => (hide[type] = f) },
      document: { addEventListener: () => {}, visibilityState: 'hidden' },
      // A busy page: no idle time comes.
      requestIdleCallback: () => 0,
    });
    try {
      const d = db();
      storePicture(3, picture(7));
      await writeDraft(d, { draft: draft(3, 7), rows: [], clearUpTo: null });
      expect(pictureFor(3, 7, 'en', 1440)).toBeNull();
      hide.pagehide();
      expect(pictureFor(3, 7, 'en', 1440)).not.toBeNull();
      d.close();
    } finally {
      for (const k of ['window', 'document', 'requestIdleCallback']) delete g[k];
    }
  });

  it('keeps the pictures of the last five projects only', async () => {
    const d = db();
    for (let pid = 1; pid <= 7; pid++) {
      await written(d, draft(pid, 7));
      storePicture(pid, picture(7));
    }
    const kept = [1, 2, 3, 4, 5, 6, 7].filter((pid) => pictureFor(pid, 7, 'en', 1440) !== null);
    expect(kept).toEqual([3, 4, 5, 6, 7]);
    d.close();
  });

  it('is forgotten when the user signs out', async () => {
    const d = db();
    await written(d, draft(3, 7));
    storePicture(3, picture(7));
    storage.setItem('app-settings', '{"locale":"en"}');
    clearAuth();
    expect(pictureFor(3, 7, 'en', 1440)).toBeNull();
    expect(storage.keys().filter((k) => k.startsWith('editor-'))).toEqual([]);
    expect(storage.getItem('app-settings')).not.toBeNull();
    forgetPictures();
    d.close();
  });

  it('is not shown when the stored picture is damaged', () => {
    storage.setItem('editor-picture:3', '{not json');
    expect(pictureFor(3, 7, 'en', 1440)).toBeNull();
    storage.setItem('editor-picture:3', JSON.stringify({ userId: 7 }));
    expect(pictureFor(3, 7, 'en', 1440)).toBeNull();
  });

  it('stamps equal texts alike and different texts apart', () => {
    const a = JSON.stringify(content);
    expect(copyStamp(a)).toBe(copyStamp(JSON.stringify(JSON.parse(a))));
    expect(copyStamp(a)).not.toBe(copyStamp(a.replace('Question', 'Questiom')));
    expect([0, 639, 640, 1023, 1024, 1440, 2000].map(widthBand)).toEqual([0, 0, 1, 2, 3, 4, 5]);
  });
});
