import type { ChangeCode, ChangeKind, ChangeLogRow } from './changelog';

/** One change-log row of a project (the editor appends one per edit, undo, redo, external change or server copy). */
export function changeRow(
  pid: number,
  seq: number,
  code: ChangeCode,
  label: string,
  kind: ChangeKind,
  command?: string,
): ChangeLogRow {
  return {
    pid,
    seq,
    code,
    at: Date.now(),
    payload: command ? { label, kind, command } : { label, kind },
  };
}
