import { assign, sendTo, setup, type ActorRef, type Snapshot } from 'xstate';
import type { EditorContext } from './context';
import { persistDraft, type DraftWriteInput, type DraftWritten } from './persistence';

// The draft in Dexie follows the screen: a child actor of the editor with a life of its own (its
// timer, one write at a time). The editor tells it that something changed (`draft.changed`, or
// `draft.flush` to write now); it waits AUTOSAVE_MS, not restarted by further changes, then asks
// for the draft of the moment (`read`) and writes it with its new change-log rows in one
// transaction, and tells the editor what it wrote (`draft.written`) or that the write failed
// (`draft.failed`). While someone types, the draft is written every AUTOSAVE_MS with everything
// typed since, never one transaction per keystroke; a reload or a killed tab loses at most that.

export const AUTOSAVE_MS = 300;

/** What the autosave is told by the editor. */
export type AutosaveEvent = { type: 'draft.changed' } | { type: 'draft.flush' };

/** What the autosave tells the editor. */
export type AutosaveReport =
  ({ type: 'draft.written' } & DraftWritten) | { type: 'draft.failed'; error: unknown };

export interface AutosaveInput {
  /** The draft of the moment, read when a write starts. */
  read: () => DraftWriteInput;
  /** Who hears what was written. */
  parent: ActorRef<Snapshot<unknown>, AutosaveReport>;
}

export const autosaveMachine = setup({
  types: {
    input: {} as AutosaveInput,
    context: {} as AutosaveInput & { changedWhileWriting: boolean },
    events: {} as AutosaveEvent,
  },
  actors: { persistDraft },
  delays: { autosave: AUTOSAVE_MS },
  guards: {
    changedWhileWriting: ({ context }) => context.changedWhileWriting,
  },
  actions: {
    forgetChanges: assign({ changedWhileWriting: false }),
    noteChange: assign({ changedWhileWriting: true }),
    reportWritten: sendTo(
      ({ context }) => context.parent,
      ({ event }) => ({
        type: 'draft.written' as const,
        ...(event as unknown as { output: DraftWritten }).output,
      }),
    ),
    reportFailed: sendTo(
      ({ context }) => context.parent,
      ({ event }) => ({
        type: 'draft.failed' as const,
        error: (event as unknown as { error: unknown }).error,
      }),
    ),
  },
}).createMachine({
  id: 'autosave',
  context: ({ input }) => ({ ...input, changedWhileWriting: false }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'draft.changed': 'waiting' },
    },
    waiting: {
      after: { autosave: 'writing' },
      on: { 'draft.flush': 'writing' },
    },
    writing: {
      entry: 'forgetChanges',
      on: { 'draft.changed': { actions: 'noteChange' } },
      invoke: {
        src: 'persistDraft',
        input: ({ context }) => context.read(),
        onDone: [
          { guard: 'changedWhileWriting', target: 'waiting', actions: 'reportWritten' },
          { target: 'idle', actions: 'reportWritten' },
        ],
        onError: { target: 'idle', actions: 'reportFailed' },
      },
    },
  },
});

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
