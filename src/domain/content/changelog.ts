// The editor's change-log (spec section 3, codes 001–013): one row per edit, kept in Dexie with the
// draft until the next successful save clears it, so the user can see what a draft holds that the
// server does not. Rows store the code and a short label (the item's text); the screen renders
// "<code's text>: <label>" in the reader's language (i18n editor.changeLog.<code>).

export const CHANGE_CODES = [
  '001', // priority change
  '002', // target platforms change
  '003', // portraits change
  '004', // block added
  '005', // question added to block
  '006', // question removed from block
  '007', // questionnaire deleted
  '008', // question changed
  '009', // block settings changed
  '010', // received from server
  '011', // block deleted
  '012', // question moved
  '013', // project settings changed
] as const;
export type ChangeCode = (typeof CHANGE_CODES)[number];

/** How a row came about: an edit, its undo or redo, a change made elsewhere (settings), the server's copy. */
export type ChangeKind = 'edit' | 'undo' | 'redo' | 'external' | 'server';

export interface Change {
  code: ChangeCode;
  /** The item's text or name, shortened; '' when it has none. */
  label: string;
  kind: ChangeKind;
}

/** A change-log row as Dexie keeps it (src/db). `seq` orders the rows of one project across reloads. */
export interface ChangeLogRow {
  id?: number;
  pid: number;
  seq: number;
  code: ChangeCode;
  /** Unix milliseconds. */
  at: number;
  payload: { label: string; kind: ChangeKind; command?: string };
}

export const LABEL_MAX = 80;

export function shortLabel(text: string): string {
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length > LABEL_MAX ? `${s.slice(0, LABEL_MAX - 1)}…` : s;
}
