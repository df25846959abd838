import { setup } from 'xstate';
import type { ProjectDocument, ServerCopy } from '../../api/content';
import type { AppDB, Draft } from '../../db/AppDB';
import type { ChangeCode, ChangeLogRow } from '../../domain/content/changelog';
import type { Command } from '../../domain/content/commands';
import type { EditorDoc, HistoryEntry } from '../../domain/content/history';
import type { Side } from '../../domain/content/merge';
import type { EditorProject, ProjectContent } from '../../domain/content/model';
import type { Problem } from '../../domain/content/problems';
import type { SavedMark } from '../../domain/content/savedMark';
import type { AutosaveReport } from './autosave';
import type { MergeState } from './merge';
import type { Loaded, Source } from './open';

// What the editor machine knows (its context), what it is told (its events) and what it starts
// with (its input): the words every file of this folder speaks. `editorSetup` carries these types
// for the actions written beside the actors they belong to (open.ts, editing.ts, save.ts, …);
// machine.ts names them all in its own setup.

export interface EditorInput {
  pid: number;
  userId: number;
  /** The Dexie database; tests pass their own. */
  db?: AppDB;
  /**
   * Open from the copy kept in this browser without waiting for the server (issue 25): the page
   * shows it at once, marked "checking for changes", and the server's answer then changes nothing,
   * replaces a clean copy, or merges with the edits (the three-way merge). The page sets it.
   */
  localFirst?: boolean;
  /**
   * The project already opened from the local copy (openedLocally, the page read it while it
   * loaded): the machine starts in the state that copy opens in, so the page's first render is the
   * outline, not a loading frame rendered, laid out and painted before it (issue 25).
   */
  opened?: Loaded;
}

export interface EditorContext {
  pid: number;
  userId: number;
  db: AppDB;
  project: EditorProject | null;
  doc: EditorDoc;
  /** The server version the content is based on: the If-Match of the next save. */
  baseVersion: number;
  /** The content as the server has it at baseVersion (null until loaded, or when not known here). */
  savedContent: ProjectContent | null;
  /**
   * Where savedContent sits in the undo history (src/domain/content/savedMark.ts). Undoing or
   * redoing onto it shows "saved" again (the content is structurally the saved one, not the same object).
   */
  savedMark: SavedMark;
  source: Source | null;
  /** A draft the newer server copy replaced on screen; the user may bring it back. */
  setAside: Draft | null;
  /** Unsaved change-log rows, oldest first (those already in Dexie and those still to write). */
  changes: ChangeLogRow[];
  /** Highest seq handed out, and highest seq already written to Dexie. */
  seq: number;
  writtenSeq: number;
  /** Rows up to this seq reached the server; the next autosave deletes them from Dexie. */
  clearLogUpTo: number | null;
  /** Raised on every change the draft must take; the autosave writes until it has caught up. */
  draftRevision: number;
  writtenRevision: number;
  draftError: string | null;
  /** The snapshot being saved, the last change-log seq it includes and its place in the history. */
  saving: { content: ProjectContent; seq: number; top: HistoryEntry | null } | null;
  conflict: ServerCopy | null;
  merge: MergeState;
  error: string | null;
  problems: Problem[];
  localFirst: boolean;
  /** The server's answer still awaited after opening from the local copy (source 'local'). */
  pendingServer: Promise<ProjectDocument> | null;
  /** Save attempts that failed for the network since the last success (the backoff grows with it). */
  attempt: number;
  online: boolean;
}

export type EditorEvent =
  | { type: 'content.edit'; command: Command }
  | { type: 'history.undo' }
  | { type: 'history.redo' }
  | { type: 'project.save' }
  | { type: 'save.retry' }
  | { type: 'load.retry' }
  | { type: 'conflict.keepMine' }
  | { type: 'conflict.takeTheirs' }
  /** Per item of a merge's conflicts: which side's version to keep; then merge again with the choices and save. */
  | { type: 'conflict.choose'; key: string; side: Side }
  | { type: 'conflict.chooseAll'; side: Side }
  | { type: 'conflict.resolve' }
  | { type: 'merge.dismiss' }
  | { type: 'draft.restore' }
  | { type: 'draft.flush' }
  /** Internal: the content changed by an edit (the doc leaves "saved", the autosave starts its wait). */
  | { type: 'draft.changed' }
  /** Internal: the draft must be written, but nothing was edited (a load, a save, the server copy taken). */
  | { type: 'draft.persist' }
  /** From the autosave child: what it wrote, or that the write failed. */
  | AutosaveReport
  /** A change made through another call (priority 001, target platforms 002, settings 013), for the log. */
  | { type: 'log.record'; code: ChangeCode; label: string }
  | { type: 'network.online' }
  | { type: 'network.offline' }
  /** Internal, after opening from the local copy: wait for the server's answer. */
  | { type: 'check.start' }
  /** Internal: the server has a newer version than the local copy with edits: merge. */
  | { type: 'server.newer' }
  /** Internal: the server says this user may not edit the project now. */
  | { type: 'server.readOnly' }
  /** Internal: the server refused the project (gone, no access). */
  | { type: 'server.failed' };

/** The save state the page shows, one word per state of the machine's `doc` region. */
export type SaveState =
  | 'loading'
  | 'loadFailed'
  | 'readOnly'
  | 'saved'
  | 'editing'
  | 'saving'
  | 'offline'
  | 'merging'
  | 'conflict'
  | 'failed';

/** The machine's types, for actions and guards written outside machine.ts. */
export const editorSetup = setup({
  types: {
    context: {} as EditorContext,
    events: {} as EditorEvent,
    input: {} as EditorInput,
  },
});

/** An actor's error as the message the page shows. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** An invoked actor's output, from a done event (XState types the event per transition, not per action). */
export const outputOf = <T>(event: unknown): T => (event as { output: T }).output;

/** An invoked actor's error, from an error event. */
export const errorOf = (event: unknown): unknown => (event as { error?: unknown }).error;
