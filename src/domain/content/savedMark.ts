import type { EditorDoc, HistoryEntry } from './history';

// Where the saved version sits in the undo history (docs/decisions/editor.md, "Saved or not"): the
// entry on top of the undo stack when the content was saved ({ top: null } is the empty stack), or
// null when no undo or redo leads back to it. An undo or redo landing on the mark shows "saved"
// again; an edit that trims the history past the mark loses the way back.

export type SavedMark = { top: HistoryEntry | null } | null;

/** The entry on top of the undo stack, null when it is empty. */
export const topOf = (doc: EditorDoc): HistoryEntry | null => doc.undo[doc.undo.length - 1] ?? null;

/** The mark after an edit from `prev` to `next`: an edit trims the oldest entry past HISTORY_LIMIT, and with it maybe the way back. */
export function markAfterEdit(mark: SavedMark, prev: EditorDoc, next: EditorDoc): SavedMark {
  const dropped = prev.undo.length > 0 && next.undo[0] !== prev.undo[0] ? prev.undo[0] : undefined;
  if (!mark || dropped === undefined) return mark;
  if (mark.top === null) return null;
  return mark.top === dropped ? { top: null } : mark;
}

/** Whether a step whose undo stack ends in `nextTop` lands on the saved version (known only while saved content is). */
export const landsOn = (mark: SavedMark, hasSaved: boolean, nextTop: HistoryEntry | null): boolean =>
  mark !== null && hasSaved && nextTop === mark.top;

/** The undo stack's top after an undo, without applying it (undefined: nothing to undo). */
export const topAfterUndo = (doc: EditorDoc): HistoryEntry | null | undefined =>
  doc.undo.length > 0 ? (doc.undo[doc.undo.length - 2] ?? null) : undefined;

/** The undo stack's top after a redo, without applying it (undefined: nothing to redo). */
export const topAfterRedo = (doc: EditorDoc): HistoryEntry | null | undefined =>
  doc.redo.length > 0 ? doc.redo[doc.redo.length - 1] : undefined;
