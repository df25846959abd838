import { assertEvent } from 'xstate';
import { editorSetup, messageOf, type EditorContext, type EditorEvent } from './context';

// The editor's side of its autosave (autosave.ts): it tells the child of every change and keeps
// how far the draft in Dexie has caught up (writtenRevision against draftRevision), what the
// page shows and what a test waits for. The machine's `autosave` region is `behind` while the
// draft lags the screen.

/** The write just reported took the latest revision: nothing changed while it ran. */
export const draftCaughtUp = ({ context, event }: { context: EditorContext; event: EditorEvent }) =>
  event.type === 'draft.written' && context.draftRevision <= event.revision;

/** Tells the autosave that the draft must be written (or written now, on draft.flush). */
export const tellAutosave = editorSetup.sendTo('autosave', ({ event }) =>
  event.type === 'draft.flush' ? { type: 'draft.flush' } : { type: 'draft.changed' },
);

export const draftWritten = editorSetup.assign(({ context, event }) => {
  assertEvent(event, 'draft.written');
  return {
    writtenRevision: event.revision,
    writtenSeq: Math.max(context.writtenSeq, event.seq),
    // A save may have asked for more clearing while this write ran.
    clearLogUpTo: context.clearLogUpTo === event.clearUpTo ? null : context.clearLogUpTo,
    draftError: null,
  };
});

export const draftFailed = editorSetup.assign(({ context, event }) => {
  assertEvent(event, 'draft.failed');
  return {
    draftError: messageOf(event.error),
    // Give up on this revision; the next change tries again.
    writtenRevision: context.draftRevision,
  };
});
