import { waitFor } from 'xstate';
import { LIMITS } from '../../../domain/content/limits';
import { dropUnreferenced, queuedRefs, uploadPlan } from '../../../db/pendingPictures';
import type { TranslationFunctions } from '../../../i18n/i18n-types';
import { notify } from '../../ui/toast';
import type { EditorActorRef } from '../dialogs';
import { PictureUploadError, uploadWithProgress } from './pictureUpload';

// Uploading the pictures that wait in the browser's queue (src/db/pendingPictures.ts), then saving.
// The editor machine knows nothing of the queue: the save command goes through `saveWithPictures`,
// which first uploads the project's queued pictures (with progress), swaps every `local-picture:`
// reference for the server's URL in one edit, and only then asks the machine to save. Coming back
// online uploads the queue too (PictureQueueStatus listens), and finishes a save asked for offline.

export type QueueStatus =
  | { phase: 'idle' }
  | { phase: 'uploading'; count: number; percent: number }
  /** No network (or it dropped during the upload): the pictures stay queued. */
  | { phase: 'waiting'; count: number }
  /** The server refused the upload (its message): the pictures stay queued. */
  | { phase: 'failed'; count: number; message: string }
  /** References whose file is no longer in this browser (removed, then brought back by an undo). */
  | { phase: 'lost'; count: number };

const DRAFT_WAIT_MS = 5_000;

/** The queue's upload for one editor actor: its status for the page, and one upload at a time. */
export class PictureQueue {
  status: QueueStatus = { phase: 'idle' };
  /** A save was asked for while pictures could not be uploaded: done once they are. */
  saveWanted = false;
  private running: Promise<boolean> | null = null;
  private listeners = new Set<() => void>();

  /** `upload` is the browser's XHR with progress; tests hand in the API client's call instead. */
  constructor(
    private readonly actor: EditorActorRef,
    private readonly send: typeof uploadWithProgress = uploadWithProgress,
  ) {}

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  getStatus = () => this.status;

  private set(status: QueueStatus) {
    this.status = status;
    for (const l of this.listeners) l();
  }

  /** Uploads what the content refers to; true when no queued reference is left. One run at a time. */
  upload(): Promise<boolean> {
    this.running ??= this.run().finally(() => (this.running = null));
    return this.running;
  }

  private async run(): Promise<boolean> {
    const { pid, db, doc } = this.actor.getSnapshot().context;
    const { rows, missing } = await uploadPlan(db, pid, doc.content);
    if (missing.length > 0) {
      this.set({ phase: 'lost', count: missing.length });
      return false;
    }
    if (rows.length === 0) {
      this.set({ phase: 'idle' });
      await dropUnreferenced(db, pid, doc.content);
      return true;
    }
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      this.set({ phase: 'waiting', count: rows.length });
      return false;
    }
    const urls: Record<string, string> = {};
    const total = rows.reduce((n, r) => n + r.blob.size, 0) || 1;
    let done = 0;
    this.set({ phase: 'uploading', count: rows.length, percent: 0 });
    try {
      for (let i = 0; i < rows.length; i += LIMITS.imagesPerUpload) {
        const chunk = rows.slice(i, i + LIMITS.imagesPerUpload);
        const size = chunk.reduce((n, r) => n + r.blob.size, 0);
        const uploaded = await this.send(chunk, (p) =>
          this.set({
            phase: 'uploading',
            count: rows.length,
            percent: Math.round(((done + (size * p) / 100) / total) * 100),
          }),
        );
        chunk.forEach((row, k) => (urls[`local-picture:${row.id}`] = uploaded[k].url));
        done += size;
      }
    } catch (err) {
      if (err instanceof PictureUploadError && err.code === 'refused')
        this.set({ phase: 'failed', count: rows.length, message: err.message });
      else this.set({ phase: 'waiting', count: rows.length });
      return false;
    }

    // One edit swaps every reference; the files go only once the draft holding the URLs is written.
    this.actor.send({ type: 'content.edit', command: { type: 'pictures.replace', urls } });
    const after = this.actor.getSnapshot().context;
    const left = queuedRefs(after.doc.content);
    if (left.some((ref) => ref in urls)) {
      // The editor did not take the edit (read-only now, or a conflict being resolved).
      this.set({ phase: 'waiting', count: left.length });
      return false;
    }
    this.actor.send({ type: 'draft.flush' });
    try {
      await waitFor(this.actor, (s) => s.context.writtenRevision >= after.draftRevision, {
        timeout: DRAFT_WAIT_MS,
      });
      await dropUnreferenced(db, pid, this.actor.getSnapshot().context.doc.content);
    } catch {
      // The draft was not written in time: the rows stay until the next upload drops them.
    }
    this.set({ phase: 'idle' });
    return left.length === 0;
  }
}

const queues = new WeakMap<EditorActorRef, PictureQueue>();

/** The picture queue of one opened project (one per editor actor). */
export function pictureQueue(actor: EditorActorRef): PictureQueue {
  let q = queues.get(actor);
  if (!q) queues.set(actor, (q = new PictureQueue(actor)));
  return q;
}

/** The words for a status the user must act on or wait for. */
export function queueStatusText(LL: TranslationFunctions, s: QueueStatus): string | null {
  const T = LL.panels.picture.queue;
  switch (s.phase) {
    case 'idle':
      return null;
    case 'uploading':
      return T.uploading({ count: s.count, percent: s.percent });
    case 'waiting':
      return T.waiting({ count: s.count });
    case 'failed':
      return T.failed({ count: s.count, message: s.message });
    case 'lost':
      return T.lost({ count: s.count });
  }
}

/**
 * The save command: queued pictures first (uploaded, references swapped in one edit), then the
 * machine's save. When they cannot go yet, nothing is saved (the server would refuse the queued
 * references), the user is told why, and the save happens once they are uploaded.
 */
export async function saveWithPictures(actor: EditorActorRef, LL: TranslationFunctions): Promise<void> {
  const queue = pictureQueue(actor);
  if (queuedRefs(actor.getSnapshot().context.doc.content).length === 0) {
    actor.send({ type: 'project.save' });
    return;
  }
  queue.saveWanted = true;
  if (await queue.upload()) {
    queue.saveWanted = false;
    actor.send({ type: 'project.save' });
    return;
  }
  const text = queueStatusText(LL, queue.status);
  if (text) notify.error(text, { id: 'picture-queue' });
}
