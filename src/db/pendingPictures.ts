import type { Block, ProjectContent } from '../domain/content/model';
import type { EditorDoc, HistoryEntry } from '../domain/content/history';
import { PENDING_PICTURE_PREFIX, pendingPictureId, pendingPictureRef } from '../domain/content/limits';
import type { AppDB, PendingPictureRow } from './AppDB';

// The queue of pictures chosen while the network was away (table `pendingPictures`). What survives
// a reload: each picture's file (a Blob) under a local id, with the project it belongs to; the
// draft (drafts table) refers to it as `local-picture:<id>`. Nothing syncs by itself: the editor
// uploads a project's queue before its next save and when the browser comes back online, swaps
// the references for the server's URLs in one edit, and only then deletes the rows. A picture
// removed from the content before its upload keeps its row while the editor's undo history can
// bring it back; rows nothing refers to (neither the content nor that history) are deleted at a
// save, or at the next one after a reload (the history does not survive it).

/** A fresh id for a queued picture (the letters `local-picture:` references accept). */
function newLocalId(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

/** Keeps a picture for later upload; answers the reference the content should hold meanwhile. */
export async function queuePicture(db: AppDB, pid: number, file: Blob, name: string): Promise<string> {
  const id = newLocalId();
  await db.pendingPictures.add({ id, pid, blob: file, name, createdAt: Date.now() });
  return pendingPictureRef(id);
}

/** The queued picture a reference names, or null (not a queued reference, or no longer queued). */
export async function queuedPicture(db: AppDB, ref: string | null): Promise<PendingPictureRow | null> {
  const id = pendingPictureId(ref);
  return id ? ((await db.pendingPictures.get(id)) ?? null) : null;
}

/** Every `local-picture:` reference of a content, each once, in reading order. */
export function queuedRefs(content: ProjectContent): string[] {
  const out = new Set<string>();
  for (const qn of content.questionnaires)
    for (const b of qn.blocks) for (const r of blockRefs(b)) out.add(r);
  return [...out];
}

// Content is immutable: an unchanged block is the same object, and is not walked again (the
// editor asks on every edit; 1 000 questions with 5 answers each are 6 000 pictures to look at).
const refsOfBlock = new WeakMap<Block, string[]>();

function blockRefs(b: Block): string[] {
  let refs = refsOfBlock.get(b);
  if (refs) return refs;
  refs = [];
  for (const q of b.questions) {
    if (pendingPictureId(q.picture)) refs.push(q.picture!);
    for (const a of q.answers) if (pendingPictureId(a.picture)) refs.push(a.picture!);
  }
  refsOfBlock.set(b, refs);
  return refs;
}

/** What the next upload must send for a content: the rows it refers to, and the references with no row left. */
export async function uploadPlan(
  db: AppDB,
  pid: number,
  content: ProjectContent,
): Promise<{ rows: PendingPictureRow[]; missing: string[] }> {
  const refs = queuedRefs(content);
  const rows = await db.pendingPictures.bulkGet(refs.map((r) => pendingPictureId(r)!));
  const found: PendingPictureRow[] = [];
  const missing: string[] = [];
  rows.forEach((row, i) => (row && row.pid === pid ? found.push(row) : missing.push(refs[i])));
  return { rows: found, missing };
}

/** The local references in one step's patches; a step never changes, so each is read once. */
const stepRefs = new WeakMap<HistoryEntry, string[]>();

function refsOfStep(entry: HistoryEntry): string[] {
  let refs = stepRefs.get(entry);
  if (refs) return refs;
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      if (v.startsWith(PENDING_PICTURE_PREFIX) && pendingPictureId(v)) out.add(v);
    } else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
  };
  for (const patch of entry.patches) walk(patch.value);
  for (const patch of entry.inverse) walk(patch.value);
  stepRefs.set(entry, (refs = [...out]));
  return refs;
}

/**
 * The `local-picture:` references an undo or a redo can bring back: every one held in a value of
 * the history's patches (a removed picture, a replaced one, a deleted question's or answer's).
 */
export function historyRefs(doc: Pick<EditorDoc, 'undo' | 'redo'>): string[] {
  const out = new Set<string>();
  for (const entry of doc.undo) for (const r of refsOfStep(entry)) out.add(r);
  for (const entry of doc.redo) for (const r of refsOfStep(entry)) out.add(r);
  return [...out];
}

/** The references a queued file must be kept for: the content's and its undo history's. */
export function referencedRefs(doc: EditorDoc): Set<string> {
  return new Set([...queuedRefs(doc.content), ...historyRefs(doc)]);
}

/**
 * Deletes the project's queued pictures that no reference `keep()` names: those uploaded and
 * swapped, and those removed (or whose item was deleted) that no undo can bring back any more.
 * `keep` is asked after the rows are read: a picture just stored had its reference put in the
 * content before the read's answer came back (IndexedDB answers in order), so it is never taken
 * for an orphan. Rows created at `before` or later are kept (tests pin the moment).
 */
export async function dropUnreferenced(
  db: AppDB,
  pid: number,
  keep: () => Iterable<string>,
  before = Infinity,
): Promise<number> {
  const old = await db.pendingPictures
    .where('pid')
    .equals(pid)
    .filter((row) => row.createdAt < before)
    .primaryKeys();
  const ids = new Set([...keep()].map((r) => pendingPictureId(r)));
  const drop = old.filter((id) => !ids.has(id));
  await db.pendingPictures.bulkDelete(drop);
  return drop.length;
}
