import { assertEvent } from 'xstate';
import { changeRow } from '../../domain/content/changeRow';
import { edit, openDoc, redo, undo, type Step } from '../../domain/content/history';
import { landsOn, markAfterEdit, topAfterRedo, topAfterUndo, topOf } from '../../domain/content/savedMark';
import { editorSetup, type EditorContext } from './context';

// The document's steps: an edit (a command of src/domain/content/commands.ts), an undo, a redo, and
// a change made through another call (log.record). Each changes the content through an immer
// patch pair (src/domain/content/history.ts), appends one change-log row and raises the draft's
// revision, so the autosave writes it. An undo or redo landing on the saved version shows "saved"
// again (src/domain/content/savedMark.ts).

/** Context after one step of the document (edit, undo or redo), with its change-log row. */
export function afterStep(ctx: EditorContext, step: Step, command?: string): Partial<EditorContext> {
  const seq = ctx.seq + 1;
  const { code, label, kind } = step.change;
  return {
    doc: step.doc,
    seq,
    changes: [...ctx.changes, changeRow(ctx.pid, seq, code, label, kind, command)],
    draftRevision: ctx.draftRevision + 1,
    error: null,
    problems: [],
  };
}

const hasSaved = (ctx: EditorContext) => ctx.savedContent !== null;

export const editingGuards = {
  undoLandsOnSaved: ({ context: c }: { context: EditorContext }) => {
    const next = topAfterUndo(c.doc);
    return next !== undefined && landsOn(c.savedMark, hasSaved(c), next);
  },
  redoLandsOnSaved: ({ context: c }: { context: EditorContext }) => {
    const next = topAfterRedo(c.doc);
    return next !== undefined && landsOn(c.savedMark, hasSaved(c), next);
  },
};

export const applyEdit = editorSetup.enqueueActions(({ context, event, enqueue }) => {
  assertEvent(event, 'content.edit');
  const step = edit(context.doc, event.command);
  if (!step) return;
  enqueue.assign({
    ...afterStep(context, step, event.command.type),
    savedMark: markAfterEdit(context.savedMark, context.doc, step.doc),
  });
  enqueue.raise({ type: 'draft.changed' });
});

// Back on the saved version, the content becomes the saved object itself (structurally the same),
// so every "changed since saved?" test (the draft's dirty flag, a save in flight) reads it as saved.
function travel(context: EditorContext, step: Step | null) {
  if (!step) return null;
  const clean = landsOn(context.savedMark, hasSaved(context), topOf(step.doc));
  const doc = clean ? { ...step.doc, content: context.savedContent! } : step.doc;
  return { patch: afterStep(context, { ...step, doc }), clean };
}

export const applyUndo = editorSetup.enqueueActions(({ context, enqueue }) => {
  const done = travel(context, undo(context.doc));
  if (!done) return;
  enqueue.assign(done.patch);
  enqueue.raise({ type: done.clean ? 'draft.persist' : 'draft.changed' });
});

export const applyRedo = editorSetup.enqueueActions(({ context, enqueue }) => {
  const done = travel(context, redo(context.doc));
  if (!done) return;
  enqueue.assign(done.patch);
  enqueue.raise({ type: done.clean ? 'draft.persist' : 'draft.changed' });
});

/** A change made through another call (priority, platforms, settings): one row in the log. */
export const recordExternal = editorSetup.enqueueActions(({ context, event, enqueue }) => {
  assertEvent(event, 'log.record');
  const seq = context.seq + 1;
  enqueue.assign({
    seq,
    changes: [...context.changes, changeRow(context.pid, seq, event.code, event.label, 'external')],
    draftRevision: context.draftRevision + 1,
  });
  enqueue.raise({ type: 'draft.changed' });
});

/** A draft the server's newer copy replaced on screen, brought back by the user. */
export const restoreDraft = editorSetup.enqueueActions(({ context, enqueue }) => {
  if (!context.setAside) return;
  enqueue.assign({
    doc: openDoc(context.setAside.content),
    savedMark: null,
    source: 'draft',
    setAside: null,
    draftRevision: context.draftRevision + 1,
  });
  enqueue.raise({ type: 'draft.changed' });
});
