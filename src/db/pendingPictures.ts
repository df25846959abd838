import type { ProjectContent } from '../domain/content/model';
import { pendingPictureId, pendingPictureRef } from '../domain/content/limits';
import type { AppDB, PendingPictureRow } from './AppDB';

// The queue of pictures chosen while the network was away (table `pendingPictures`). What survives
// a reload: each picture's file (a Blob) under a local id, with the project it belongs to; the
// draft (drafts table) refers to it as `local-picture:<id>`. Nothing syncs by itself: the editor
// uploads a project's queue before its next save and when the browser comes back online, swaps
// the references for the server's URLs in one edit, and only then deletes the rows. A picture
// removed from the content before its upload is deleted from the queue at once.

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

/** Drops a queued picture (removed from the content before it was uploaded). */
export async function unqueuePicture(db: AppDB, ref: string | null): Promise<void> {
  const id = pendingPictureId(ref);
  if (id) await db.pendingPictures.delete(id);
}

/** Every `local-picture:` reference of a content, each once, in reading order. */
export function queuedRefs(content: ProjectContent): string[] {
  const out = new Set<string>();
  for (const qn of content.questionnaires)
    for (const b of qn.blocks)
      for (const q of b.questions) {
        if (pendingPictureId(q.picture)) out.add(q.picture!);
        for (const a of q.answers) if (pendingPictureId(a.picture)) out.add(a.picture!);
      }
  return [...out];
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

/**
 * Deletes the project's queued pictures the content no longer refers to: those just uploaded and
 * swapped, and those whose item was deleted or whose category dropped answer pictures.
 */
export async function dropUnreferenced(db: AppDB, pid: number, content: ProjectContent): Promise<number> {
  const keep = new Set(queuedRefs(content).map((r) => pendingPictureId(r)));
  return db.pendingPictures
    .where('pid')
    .equals(pid)
    .filter((row) => !keep.has(row.id))
    .delete();
}
