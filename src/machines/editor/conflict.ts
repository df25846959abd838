import { assertEvent } from 'xstate';
import { serverCopyOf } from '../../api/content';
import { changeRow } from '../../domain/content/changeRow';
import { openDoc } from '../../domain/content/history';
import { editorSetup, errorOf, outputOf } from './context';
import { afterStep } from './editing';
import { chooseAll, mergedStep, noticeOf, type MergeOutcome } from './merge';

// When the server has a newer version than the one the content is based on (a 412 at save, a draft
// based on an older version at load, the server's late answer after a local open): merged by item
// id (merge.ts); without conflicts the merge replaces the content as one undoable step and is
// saved; with conflicts the user chooses per item and the choices are merged again. When the merge
// cannot be had (the base version unreachable offline), the whole-copy choice: keep mine or take theirs.

export const conflictGuards = {
  mergeConflicted: ({ event }: { event: unknown }) =>
    outputOf<MergeOutcome>(event).result.conflicts.length > 0,
};

/** A 412 at save: the server's copy is what the content merges with. */
export const gotConflict = editorSetup.assign(({ event }) => ({
  saving: null,
  conflict: serverCopyOf(errorOf(event)),
}));

export const mergePending = editorSetup.assign(({ event }) => ({
  merge: { pending: { ...outputOf<MergeOutcome>(event), choices: {} }, notice: null },
}));

// The merge (with the user's choices, if any) replaces the content as one undoable step, on top of
// the server's version, and is saved next.
export const mergeApplied = editorSetup.enqueueActions(({ context, event, enqueue }) => {
  const pending = context.merge.pending;
  const outcome = pending ?? outputOf<MergeOutcome>(event);
  const choices = pending?.choices;
  const step = mergedStep(context.doc, outcome, choices);
  enqueue.assign({
    ...(step ? afterStep(context, step, 'content.replace') : {}),
    baseVersion: outcome.theirs.version,
    savedContent: outcome.theirs.content,
    savedMark: null,
    conflict: null,
    merge: { pending: null, notice: noticeOf(outcome, choices) },
    draftRevision: context.draftRevision + 1,
  });
  enqueue.raise({ type: 'draft.persist' });
});

export const chooseOne = editorSetup.assign(({ context, event }) => {
  assertEvent(event, 'conflict.choose');
  const pending = context.merge.pending;
  if (!pending) return {};
  return {
    merge: {
      ...context.merge,
      pending: { ...pending, choices: { ...pending.choices, [event.key]: event.side } },
    },
  };
});

export const chooseEverywhere = editorSetup.assign(({ context, event }) => {
  assertEvent(event, 'conflict.chooseAll');
  const pending = context.merge.pending;
  if (!pending) return {};
  return { merge: { ...context.merge, pending: { ...pending, choices: chooseAll(pending, event.side) } } };
});

export const dismissMerge = editorSetup.assign(({ context }) => ({
  merge: { ...context.merge, notice: null },
}));

/** The whole-copy choice: mine, saved over the server's version. */
export const keepMine = editorSetup.assign(({ context }) => ({
  baseVersion: context.conflict!.version,
  savedContent: context.conflict!.content,
  savedMark: null,
  conflict: null,
}));

/** The whole-copy choice: the server's copy replaces mine. */
export const takeTheirs = editorSetup.enqueueActions(({ context, enqueue }) => {
  const theirs = context.conflict!;
  const seq = context.seq + 1;
  enqueue.assign({
    doc: openDoc(theirs.content),
    baseVersion: theirs.version,
    savedContent: theirs.content,
    savedMark: { top: null },
    conflict: null,
    seq,
    // The server copy is now the whole truth: earlier unsaved rows go, one 010 row stays.
    changes: [changeRow(context.pid, seq, '010', context.project?.name ?? '', 'server')],
    clearLogUpTo: context.seq,
    draftRevision: context.draftRevision + 1,
  });
  enqueue.raise({ type: 'draft.persist' });
});
