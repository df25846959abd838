import Dexie from 'dexie';
import type { ChangeLogRow } from '../domain/content/changelog';
import type { AppDB, Draft, DraftRow } from './AppDB';
import { forgetCopy, stampCopyWhenIdle } from './openingPicture';

// Reading and writing a project's draft with its change-log. Every write is one transaction over
// both tables, so a draft never exists without the rows that explain it, or the other way round.

export interface StoredDraft {
  draft: Draft | null;
  /** The project's change-log rows, oldest first (those of another user's draft are left out). */
  rows: ChangeLogRow[];
  /** The highest seq of any row of the project, so new rows continue after it. */
  lastSeq: number;
}

/**
 * The stored row as a draft whose content is parsed when first read: opening a project whose draft
 * is clean takes the server's copy and never needs it (half a megabyte of JSON and more, parsed on
 * the main thread while the editor opens).
 */
function withLazyContent(row: DraftRow): Draft {
  const { content: text, ...rest } = row;
  let content: Draft['content'] | undefined;
  return Object.defineProperty(rest as Draft, 'content', {
    get: () => (content ??= JSON.parse(text) as Draft['content']),
    enumerable: true,
  });
}

/** The stored draft row and the project's change-log rows (oldest first) as this user's draft. */
export function storedDraftOf(row: DraftRow | undefined, rows: ChangeLogRow[], userId: number): StoredDraft {
  const draft: Draft | null = row ? withLazyContent(row) : null;
  const lastSeq = rows.length ? rows[rows.length - 1].seq : 0;
  const mine = draft && draft.userId === userId ? draft : null;
  return { draft: mine, rows: mine ? rows : [], lastSeq };
}

export async function readDraft(db: AppDB, pid: number, userId: number): Promise<StoredDraft> {
  return db.transaction('r', [db.drafts, db.changeLog], async () => {
    const row = await db.drafts.get(pid);
    const rows = await db.changeLog
      .where('[pid+seq]')
      .between([pid, Dexie.minKey], [pid, Dexie.maxKey])
      .toArray();
    return storedDraftOf(row, rows, userId);
  });
}

export interface DraftWrite {
  draft: Draft;
  /** New change-log rows to append. */
  rows: ChangeLogRow[];
  /** Delete the project's rows with seq up to this one (they reached the server), before appending. */
  clearUpTo: number | null;
}

/** One autosave: the draft, the rows cleared by a save, and the new rows, all or nothing. */
export async function writeDraft(db: AppDB, w: DraftWrite): Promise<void> {
  const content = JSON.stringify(w.draft.content);
  await db.transaction('rw', [db.drafts, db.changeLog], async () => {
    await db.drafts.put({ ...w.draft, content });
    if (w.clearUpTo !== null) {
      await db.changeLog
        .where('[pid+seq]')
        .between([w.draft.pid, Dexie.minKey], [w.draft.pid, w.clearUpTo], true, true)
        .delete();
    }
    if (w.rows.length > 0) await db.changeLog.bulkAdd(w.rows);
  });
  // The opening picture depicts a copy by this stamp (openingPicture.ts), taken when the page is idle:
  // hashing the text costs 1–6 ms, not worth adding to the autosave. Until then, and if the page goes
  // first, the stamp is the previous copy's, and a picture of this one is not shown: the safe side.
  stampCopyWhenIdle(w.draft.pid, w.draft.userId, content);
}

export async function readChangeLog(db: AppDB, pid: number): Promise<ChangeLogRow[]> {
  return db.changeLog.where('[pid+seq]').between([pid, Dexie.minKey], [pid, Dexie.maxKey]).toArray();
}

/** Forgets a project's draft and its rows (the user chose the server copy and saved, or signed out). */
export async function deleteDraft(db: AppDB, pid: number): Promise<void> {
  await db.transaction('rw', [db.drafts, db.changeLog], async () => {
    await db.drafts.delete(pid);
    await db.changeLog.where('pid').equals(pid).delete();
  });
  forgetCopy(pid);
}
