import { applyPatches, freeze, type Patch } from 'immer';
import type { Change, ChangeCode } from './changelog';
import { performCommand, type Command } from './commands';
import type { ProjectContent } from './model';

// Bounded undo and redo stacks of immer patch pairs. The editor keeps its content and history in
// one immutable value; edit, undo and redo each return the next value and the change-log row the
// step adds (an undo is logged too, as the same code marked "undo", so the log tells the story).

export const HISTORY_LIMIT = 200;

export interface HistoryEntry {
  patches: Patch[];
  inverse: Patch[];
  code: ChangeCode;
  label: string;
}

export interface EditorDoc {
  content: ProjectContent;
  undo: readonly HistoryEntry[];
  redo: readonly HistoryEntry[];
}

export interface Step {
  doc: EditorDoc;
  change: Change;
}

/**
 * Frozen once here, when a project opens, so the first keystroke does not pay for immer freezing
 * the whole tree. `idle`: frozen at the page's next idle moment instead, so that opening shows the
 * outline first (the freeze was 5–8 ms of a 1 000-question reopen); an edit before then costs what
 * it did before the freeze moved here, immer freezing the tree itself.
 */
export function openDoc(content: ProjectContent, when: 'now' | 'idle' = 'now'): EditorDoc {
  if (when === 'now') freeze(content, true);
  else if (typeof requestIdleCallback === 'function')
    requestIdleCallback(() => freeze(content, true), { timeout: 2000 });
  else setTimeout(() => freeze(content, true), 0);
  return { content, undo: [], redo: [] };
}

export function edit(doc: EditorDoc, command: Command): Step | null {
  const done = performCommand(doc.content, command);
  if (!done) return null;
  const entry: HistoryEntry = {
    patches: done.patches,
    inverse: done.inverse,
    code: done.code,
    label: done.label,
  };
  const undo =
    doc.undo.length >= HISTORY_LIMIT
      ? [...doc.undo.slice(doc.undo.length - HISTORY_LIMIT + 1), entry]
      : [...doc.undo, entry];
  return {
    doc: { content: done.content, undo, redo: [] },
    change: { code: done.code, label: done.label, kind: 'edit' },
  };
}

export function undo(doc: EditorDoc): Step | null {
  const entry = doc.undo[doc.undo.length - 1];
  if (!entry) return null;
  return {
    doc: {
      content: applyPatches(doc.content, entry.inverse),
      undo: doc.undo.slice(0, -1),
      redo: [...doc.redo, entry],
    },
    change: { code: entry.code, label: entry.label, kind: 'undo' },
  };
}

export function redo(doc: EditorDoc): Step | null {
  const entry = doc.redo[doc.redo.length - 1];
  if (!entry) return null;
  return {
    doc: {
      content: applyPatches(doc.content, entry.patches),
      undo: [...doc.undo, entry],
      redo: doc.redo.slice(0, -1),
    },
    change: { code: entry.code, label: entry.label, kind: 'redo' },
  };
}

export const canUndo = (doc: EditorDoc) => doc.undo.length > 0;
export const canRedo = (doc: EditorDoc) => doc.redo.length > 0;
