import type { ChangeLogRow } from '../domain/content/changelog';
import type { DraftRow, LayoutRow } from './AppDB';

// The local copy of the project a page opens on (/project?pid=N, a reload or a link), read with
// the browser's own IndexedDB by the app's first script, beside the start-up's chunks, the sign-in
// and the project's fetch. Dexie lives in the editor's chunk: waiting for it to arrive and open the
// database put the read after the editor's chunk, and the outline after the read (issue 25, the
// reopen from the local copy; docs/decisions/reopen.md). Small on purpose: it is in every page's
// first script. Any failure (no IndexedDB, no database yet, an older shape) answers null and the
// editor reads through Dexie as before.

/** The three rows the editor opens with: the draft, its change-log (oldest first), the cached layout. */
export interface EarlyRows {
  draft: DraftRow | undefined;
  rows: ChangeLogRow[];
  layout: LayoutRow | undefined;
}

/** The app's database (AppDB's default name). */
export const APP_DB_NAME = 'survey-backoffice';

const STORES = ['drafts', 'changeLog', 'layouts'];

export function readEarly(name: string, pid: number): Promise<EarlyRows | null> {
  // User Timing measures (editor:local-open, editor:local-read) let the benchmarks read what it cost.
  const start = performance.now();
  return new Promise((resolve) => {
    let open: IDBOpenDBRequest;
    try {
      // No version: the database as it is. Never created here: Dexie creates and upgrades it.
      open = indexedDB.open(name);
    } catch {
      resolve(null);
      return;
    }
    open.onupgradeneeded = () => open.transaction?.abort();
    open.onerror = () => resolve(null);
    open.onblocked = () => resolve(null);
    open.onsuccess = () => {
      performance.measure('editor:local-open', { start });
      const db = open.result;
      // Dexie may need to upgrade it meanwhile: never stand in its way.
      db.onversionchange = () => db.close();
      try {
        if (!STORES.every((s) => db.objectStoreNames.contains(s))) throw new Error('older database');
        const tx = db.transaction(STORES, 'readonly');
        const draft = tx.objectStore('drafts').get(pid);
        const rows = tx.objectStore('changeLog').index('pid').getAll(pid);
        const layout = tx.objectStore('layouts').get(pid);
        // Taken when the last of the three answers, not at the transaction's complete event: a
        // read-only transaction's results are final once they arrive, and the complete event is one
        // more task on the page's thread, behind everything else the loading page queues there
        // (50–200 ms on a loaded machine, issue 34).
        let left = 3;
        const answered = () => {
          if (--left > 0) return;
          performance.measure('editor:local-read', { start });
          resolve({
            draft: draft.result as DraftRow | undefined,
            rows: (rows.result as ChangeLogRow[]).sort((a, b) => a.seq - b.seq),
            layout: layout.result as LayoutRow | undefined,
          });
        };
        draft.onsuccess = rows.onsuccess = layout.onsuccess = answered;
        tx.oncomplete = () => db.close();
        // After a resolve this changes nothing (a promise settles once).
        tx.onerror = tx.onabort = () => {
          db.close();
          resolve(null);
        };
      } catch {
        db.close();
        resolve(null);
      }
    };
  });
}
