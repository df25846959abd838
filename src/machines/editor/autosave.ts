import { editorSetup, errorOf, messageOf, outputOf, type EditorContext } from './context';
import type { DraftWriteInput, DraftWritten } from './persistence';

// The draft in Dexie follows the screen: every change raises the draft's revision, and the
// machine's `autosave` region writes the draft and its new change-log rows in one transaction at
// most every AUTOSAVE_MS, so a reload or a killed tab loses at most that much, and never one
// transaction per keystroke.

export const AUTOSAVE_MS = 300;

/** What the next write takes: the content of the moment and the rows not yet written. */
export function draftWriteOf(context: EditorContext): DraftWriteInput {
  return {
    db: context.db,
    revision: context.draftRevision,
    clearUpTo: context.clearLogUpTo,
    rows: context.changes.filter((r) => r.seq > context.writtenSeq),
    draft: {
      pid: context.pid,
      userId: context.userId,
      content: context.doc.content,
      baseVersion: context.baseVersion,
      updatedAt: Date.now(),
      dirty: context.doc.content !== context.savedContent,
      project: context.project!,
    },
  };
}

export const autosaveGuards = {
  draftBehind: ({ context, event }: { context: EditorContext; event: unknown }) =>
    context.draftRevision > outputOf<DraftWritten>(event).revision,
};

export const draftWritten = editorSetup.assign(({ context, event }) => {
  const out = outputOf<DraftWritten>(event);
  return {
    writtenRevision: out.revision,
    writtenSeq: Math.max(context.writtenSeq, out.seq),
    // A save may have asked for more clearing while this write ran.
    clearLogUpTo: context.clearLogUpTo === out.clearUpTo ? null : context.clearLogUpTo,
    draftError: null,
  };
});

export const draftFailed = editorSetup.assign(({ context, event }) => ({
  draftError: messageOf(errorOf(event)),
  // Give up on this revision; the next change tries again.
  writtenRevision: context.draftRevision,
}));
