import { and, assign, enqueueActions, fromCallback, fromPromise, setup } from 'xstate';
import { ApiError } from '../api/client';
import {
  fetchProject,
  problemsOf,
  saveProject,
  serverCopyOf,
  type ProjectDocument,
  type SaveResult,
  type ServerCopy,
} from '../api/content';
import { appDB, type AppDB, type Draft } from '../db/AppDB';
import { readDraft, writeDraft } from '../db/drafts';
import type { ChangeCode, ChangeKind, ChangeLogRow } from '../domain/content/changelog';
import type { Command } from '../domain/content/commands';
import {
  edit,
  openDoc,
  redo,
  undo,
  type EditorDoc,
  type HistoryEntry,
  type Step,
} from '../domain/content/history';
import type { EditorProject, ProjectContent } from '../domain/content/model';
import { blocksSave, type Problem } from '../domain/content/problems';
import { newQuestionnaire } from '../domain/content/factory';
import { checkContent } from '../domain/content/rules';
import type { Side } from '../domain/content/merge';
import {
  chooseAll,
  mergedStep,
  mergeWithServer,
  NO_MERGE,
  noticeOf,
  type MergeOutcome,
  type MergeState,
} from './editor/merge';

// The project editor's core (DESIGN.md section 6), without its screens:
//   loading → editing ↔ saving → saved, with offline (the save waits for the network and retries
//   with backoff), merging (a 412, or a draft based on an older version: merged with the server's
//   version by item id, ./editor/merge.ts, then saved), conflict (items changed on both sides: the
//   user chooses per item), failed (retry) and readOnly (the project is not editable for this user now).
// Every edit, undo and redo changes the content through an immer patch pair and appends one
// change-log row; a parallel `autosave` region writes the draft and its new rows to Dexie in one
// transaction at most every AUTOSAVE_MS, so a reload or a killed tab loses at most that much.

export const AUTOSAVE_MS = 300;
export const RETRY_MAX_MS = 30_000;

/** How the content on screen was chosen at load (the user is told which). */
export type Source = 'server' | 'draft' | 'offline' | 'serverNewer' | 'local';

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
   * Where savedContent sits in the undo history: the entry on top of the undo stack when it was
   * saved (null: the empty stack), or null itself when no undo or redo leads back to it. Undoing or
   * redoing onto it shows "saved" again (the content is structurally the saved one, not the same object).
   */
  savedMark: { top: HistoryEntry | null } | null;
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

export interface Loaded {
  project: EditorProject;
  content: ProjectContent;
  baseVersion: number;
  savedContent: ProjectContent | null;
  /** The server's newer version, when the draft is based on an older one: merged before editing. */
  theirs?: ServerCopy;
  source: Source;
  setAside: Draft | null;
  changes: ChangeLogRow[];
  lastSeq: number;
  /** Rows of a replaced draft to delete at the first autosave. */
  clearLogUpTo: number | null;
  /** Write the loaded copy to Dexie right away (so it opens offline next time). */
  persist: boolean;
  /** Opened from the local copy: the server's answer, still to come. */
  pending?: Promise<ProjectDocument>;
}

/** The opened project: a load's output, or the one the page handed in at the start (`opened`). */
function loadedOf(event: unknown): Loaded {
  const e = event as { output?: Loaded; input?: EditorInput };
  return (e.output ?? e.input?.opened)!;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Opens a project: the server copy and the Dexie draft, the newer one wins. A draft with changes
 * based on the current server version is ahead of it; one based on an older version wins only if
 * it was written after the server's last save (then the next save meets a 412 and the user chooses).
 */
export const loadProject = fromPromise<
  Loaded,
  { pid: number; userId: number; db: AppDB; localFirst?: boolean }
>(({ input }) => openProject(input));

/** The server's copy as the editor opens it: a new project gets one empty questionnaire. */
export function serverContentOf(server: ProjectDocument): ProjectContent {
  return server.editable && server.content.questionnaires.length === 0
    ? { ...server.content, questionnaires: [newQuestionnaire({ blocks: [] })] }
    : server.content;
}

/** The local copy, opened before the server answers; `pending` is that answer. */
export function openedLocally(
  stored: Awaited<ReturnType<typeof readDraft>>,
  pending: Promise<ProjectDocument>,
): Loaded {
  const d = stored.draft!;
  return {
    project: d.project,
    content: d.content,
    baseVersion: d.baseVersion,
    // A dirty draft's base is not kept here: a merge fetches it from the history.
    savedContent: d.dirty ? null : d.content,
    source: 'local',
    setAside: null,
    changes: stored.rows,
    lastSeq: stored.lastSeq,
    clearLogUpTo: null,
    persist: false,
    pending,
  };
}

/** The two copies of a project, as promises: the draft in Dexie and the server's. */
export interface ProjectSources {
  stored: Promise<Awaited<ReturnType<typeof readDraft>>>;
  server: Promise<Awaited<ReturnType<typeof fetchProject>>>;
}

/**
 * Opens a project from its two copies; `sources` are reads already under way (the page starts
 * them while the app itself loads), otherwise both are started here.
 */
export async function openProject(
  input: { pid: number; userId: number; db: AppDB; localFirst?: boolean },
  sources?: ProjectSources,
): Promise<Loaded> {
  // Both at once: opening IndexedDB and the network each take a while on a cold page.
  const storedAsync = sources?.stored ?? readDraft(input.db, input.pid, input.userId);
  const serverAsync = sources?.server ?? fetchProject(input.pid);
  // Neither rejection may go unhandled while the other is awaited.
  storedAsync.catch(() => {});
  serverAsync.catch(() => {});
  const stored = await storedAsync;
  // Opened on this device before: shown at once, the server's answer reconciled when it comes.
  if (input.localFirst && stored.draft) return openedLocally(stored, serverAsync);
  let server;
  try {
    server = await serverAsync;
  } catch (err) {
    // Offline: the copy kept in this browser, if there is one.
    if (err instanceof ApiError && err.isNetwork && stored.draft) {
      const d = stored.draft;
      return {
        project: d.project,
        content: d.content,
        baseVersion: d.baseVersion,
        // A dirty draft's base is not kept here: a merge fetches it from the history.
        savedContent: d.dirty ? null : d.content,
        source: 'offline',
        setAside: null,
        changes: stored.rows,
        lastSeq: stored.lastSeq,
        clearLogUpTo: null,
        persist: false,
      };
    }
    throw err;
  }
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the content is taken apart from the rest
  const { content: fetched, version, updatedAt, ...meta } = server;
  const project: EditorProject = meta;
  // A new project opens with one empty questionnaire, so "Add block" has somewhere to add. It
  // counts as the server's copy (an empty questionnaire is as empty as none): nothing to save.
  const serverContent = serverContentOf(server);
  const fromServer = (source: Source, setAside: Draft | null): Loaded => {
    // When the server copy replaces a draft, the log says so (010) and the draft's old rows go.
    const received: ChangeLogRow[] =
      source === 'serverNewer'
        ? [
            {
              pid: input.pid,
              seq: stored.lastSeq + 1,
              code: '010',
              at: Date.now(),
              payload: { label: project.name, kind: 'server' },
            },
          ]
        : [];
    return {
      project,
      content: serverContent,
      baseVersion: version,
      savedContent: serverContent,
      source,
      setAside,
      changes: received,
      lastSeq: stored.lastSeq + received.length,
      clearLogUpTo: stored.lastSeq > 0 ? stored.lastSeq : null,
      // A replaced draft stays in Dexie until the user edits or brings it back.
      persist: project.editable && source === 'server',
    };
  };
  const d = stored.draft;
  if (!project.editable || !d || !d.dirty) return fromServer('server', null);
  if (d.baseVersion === version) {
    return {
      project,
      content: d.content,
      baseVersion: d.baseVersion,
      savedContent: serverContent,
      source: 'draft',
      setAside: null,
      changes: stored.rows,
      lastSeq: stored.lastSeq,
      clearLogUpTo: null,
      persist: false,
    };
  }
  // The draft started from an older version than the server's: merged, not one or the other.
  return {
    project,
    content: d.content,
    baseVersion: d.baseVersion,
    savedContent: null,
    theirs: { version, updatedAt, content: serverContent },
    source: 'draft',
    setAside: null,
    changes: stored.rows,
    lastSeq: stored.lastSeq,
    clearLogUpTo: null,
    persist: false,
  };
}

export const saveToServer = fromPromise<
  SaveResult,
  { pid: number; content: ProjectContent; baseVersion: number }
>(({ input }) => saveProject(input.pid, input.content, input.baseVersion));

export interface DraftWriteInput {
  db: AppDB;
  draft: Draft;
  rows: ChangeLogRow[];
  clearUpTo: number | null;
  revision: number;
}

export const persistDraft = fromPromise<
  { revision: number; seq: number; clearUpTo: number | null },
  DraftWriteInput
>(async ({ input }) => {
  await writeDraft(input.db, { draft: input.draft, rows: input.rows, clearUpTo: input.clearUpTo });
  return {
    revision: input.revision,
    seq: input.rows.length ? input.rows[input.rows.length - 1].seq : -1,
    clearUpTo: input.clearUpTo,
  };
});

/** Tells the machine when the browser goes on- or offline. */
export const networkWatcher = fromCallback<EditorEvent>(({ sendBack }) => {
  if (typeof window === 'undefined') return;
  const online = () => sendBack({ type: 'network.online' });
  const offline = () => sendBack({ type: 'network.offline' });
  window.addEventListener('online', online);
  window.addEventListener('offline', offline);
  return () => {
    window.removeEventListener('online', online);
    window.removeEventListener('offline', offline);
  };
});

function row(
  ctx: EditorContext,
  seq: number,
  code: ChangeCode,
  label: string,
  kind: ChangeKind,
  command?: string,
): ChangeLogRow {
  return {
    pid: ctx.pid,
    seq,
    code,
    at: Date.now(),
    payload: command ? { label, kind, command } : { label, kind },
  };
}

/** Context after one step of the document (edit, undo or redo), with its change-log row. */
function afterStep(ctx: EditorContext, step: Step, command?: string): Partial<EditorContext> {
  const seq = ctx.seq + 1;
  return {
    doc: step.doc,
    seq,
    changes: [...ctx.changes, row(ctx, seq, step.change.code, step.change.label, step.change.kind, command)],
    draftRevision: ctx.draftRevision + 1,
    error: null,
    problems: [],
  };
}

const top = (doc: EditorDoc) => doc.undo[doc.undo.length - 1] ?? null;

/** The saved mark after an edit: an edit trims the oldest entry past HISTORY_LIMIT, and with it maybe the way back. */
function markAfterEdit(ctx: EditorContext, next: EditorDoc): EditorContext['savedMark'] {
  const mark = ctx.savedMark;
  const dropped = ctx.doc.undo.length > 0 && next.undo[0] !== ctx.doc.undo[0] ? ctx.doc.undo[0] : undefined;
  if (!mark || dropped === undefined) return mark;
  if (mark.top === null) return null;
  return mark.top === dropped ? { top: null } : mark;
}

/** Whether a step of the document lands on the saved version. */
const landsOn = (ctx: EditorContext, nextTop: HistoryEntry | null) =>
  ctx.savedMark !== null && ctx.savedContent !== null && nextTop === ctx.savedMark.top;
const landsOnSaved = (ctx: EditorContext, next: EditorDoc) => landsOn(ctx, top(next));

const editable = {
  'content.edit': { actions: 'applyEdit' },
  'history.undo': { actions: 'applyUndo' },
  'history.redo': { actions: 'applyRedo' },
} as const;

/** The server's answer after opening from the local copy, wherever the document is by then. */
const afterLocalOpen = {
  'server.newer': 'merging',
  'server.readOnly': 'readOnly',
  'server.failed': 'loadFailed',
} as const;

/** Where the content may be edited and saved: an undo or redo back onto the saved version shows "saved". */
const editableToSaved = {
  'content.edit': { actions: 'applyEdit' },
  'history.undo': [
    { guard: 'undoLandsOnSaved', target: 'saved', actions: 'applyUndo' },
    { actions: 'applyUndo' },
  ],
  'history.redo': [
    { guard: 'redoLandsOnSaved', target: 'saved', actions: 'applyRedo' },
    { actions: 'applyRedo' },
  ],
} as const;

export const editorMachine = setup({
  types: {
    context: {} as EditorContext,
    events: {} as EditorEvent,
    input: {} as EditorInput,
  },
  actors: {
    loadProject,
    saveToServer,
    persistDraft,
    networkWatcher,
    mergeWithServer,
    checkServer: fromPromise<ProjectDocument, { pending: Promise<ProjectDocument> }>(
      ({ input }) => input.pending,
    ),
  },
  delays: {
    autosave: AUTOSAVE_MS,
    retry: ({ context }) => Math.min(RETRY_MAX_MS, 1000 * 2 ** Math.max(0, context.attempt - 1)),
  },
  guards: {
    readOnly: ({ event }) => !loadedOf(event).project.editable,
    dirtyAtLoad: ({ event }) => {
      const out = loadedOf(event);
      return out.content !== out.savedContent;
    },
    persistAtLoad: ({ event }) => loadedOf(event).persist,
    openedAtStart: ({ event }) =>
      (event as { type: string }).type === 'xstate.init' &&
      (event as { input?: EditorInput }).input?.opened !== undefined,
    mergeAtLoad: ({ event }) => loadedOf(event).theirs !== undefined,
    mergeConflicted: ({ event }) =>
      (event as unknown as { output: MergeOutcome }).output.result.conflicts.length > 0,
    changedWhileSaving: ({ context }) =>
      context.saving !== null && context.doc.content !== context.saving.content,
    blockedByRules: ({ context }) =>
      context.project !== null &&
      blocksSave(checkContent(context.doc.content, { projectType: context.project.type })).length > 0,
    networkError: ({ event }) => {
      const err = (event as unknown as { error?: unknown }).error;
      return err instanceof ApiError && err.isNetwork;
    },
    stale: ({ event }) => serverCopyOf((event as { error?: unknown }).error) !== null,
    notEditable: ({ event }) => {
      const err = (event as { error?: unknown }).error;
      return err instanceof ApiError && err.status === 409;
    },
    // The undo stack's top after the step, without applying it.
    undoLandsOnSaved: ({ context: c }) =>
      c.doc.undo.length > 0 && landsOn(c, c.doc.undo[c.doc.undo.length - 2] ?? null),
    redoLandsOnSaved: ({ context: c }) =>
      c.doc.redo.length > 0 && landsOn(c, c.doc.redo[c.doc.redo.length - 1]),
    draftBehind: ({ context, event }) =>
      context.draftRevision > (event as unknown as { output: { revision: number } }).output.revision,
  },
  actions: {
    applyEdit: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'content.edit') return;
      const step = edit(context.doc, event.command);
      if (!step) return;
      enqueue.assign({
        ...afterStep(context, step, event.command.type),
        savedMark: markAfterEdit(context, step.doc),
      });
      enqueue.raise({ type: 'draft.changed' });
    }),
    // Back on the saved version, the content becomes the saved object itself (structurally the same),
    // so every "changed since saved?" test (the draft's dirty flag, a save in flight) reads it as saved.
    applyUndo: enqueueActions(({ context, enqueue }) => {
      const step = undo(context.doc);
      if (!step) return;
      const clean = landsOnSaved(context, step.doc);
      const doc = clean ? { ...step.doc, content: context.savedContent! } : step.doc;
      enqueue.assign(afterStep(context, { ...step, doc }));
      enqueue.raise({ type: clean ? 'draft.persist' : 'draft.changed' });
    }),
    applyRedo: enqueueActions(({ context, enqueue }) => {
      const step = redo(context.doc);
      if (!step) return;
      const clean = landsOnSaved(context, step.doc);
      const doc = clean ? { ...step.doc, content: context.savedContent! } : step.doc;
      enqueue.assign(afterStep(context, { ...step, doc }));
      enqueue.raise({ type: clean ? 'draft.persist' : 'draft.changed' });
    }),
    recordExternal: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'log.record') return;
      const seq = context.seq + 1;
      enqueue.assign({
        seq,
        changes: [...context.changes, row(context, seq, event.code, event.label, 'external')],
        draftRevision: context.draftRevision + 1,
      });
      enqueue.raise({ type: 'draft.changed' });
    }),
    loaded: assign(({ event }) => {
      const out = loadedOf(event);
      return {
        project: out.project,
        // Frozen once the page is idle: the outline shows first.
        doc: openDoc(out.content, 'idle'),
        baseVersion: out.baseVersion,
        savedContent: out.savedContent,
        savedMark: out.content === out.savedContent ? { top: null } : null,
        source: out.source,
        setAside: out.setAside,
        changes: out.changes,
        seq: out.lastSeq,
        writtenSeq: out.lastSeq,
        clearLogUpTo: out.clearLogUpTo,
        error: null,
      };
    }),
    startCheck: enqueueActions(({ event, enqueue }) => {
      const out = loadedOf(event);
      if (!out.pending) return;
      enqueue.assign({ pendingServer: out.pending });
      enqueue.raise({ type: 'check.start' });
    }),
    // The server's answer after opening from the local copy: the same version changes nothing on
    // screen; a newer one replaces a copy without edits, or is merged with the edits (three-way,
    // the base from the history when the draft does not keep it).
    serverAnswered: enqueueActions(({ context, event, enqueue }) => {
      const server = (event as unknown as { output: ProjectDocument }).output;
      const { content: _content, version, updatedAt, ...project } = server;
      const serverContent = serverContentOf(server);
      const clean = context.doc.content === context.savedContent;
      enqueue.assign({ pendingServer: null, project });
      if (!project.editable) {
        enqueue.assign({ source: 'server' });
        enqueue.raise({ type: 'server.readOnly' });
      } else if (version === context.baseVersion) {
        enqueue.assign({
          source: clean ? 'server' : 'draft',
          savedContent: context.savedContent ?? serverContent,
        });
      } else if (clean) {
        const seq = context.seq + 1;
        enqueue.assign({
          doc: openDoc(serverContent),
          baseVersion: version,
          savedContent: serverContent,
          savedMark: { top: null },
          source: 'server',
          seq,
          changes: [row(context, seq, '010', project.name, 'server')],
          clearLogUpTo: context.seq,
          draftRevision: context.draftRevision + 1,
        });
        enqueue.raise({ type: 'draft.persist' });
      } else {
        enqueue.assign({ source: 'draft', conflict: { version, updatedAt, content: serverContent } });
        enqueue.raise({ type: 'server.newer' });
      }
    }),
    serverUnreachable: assign({ pendingServer: null, source: 'offline' as const, online: false }),
    serverRefused: enqueueActions(({ event, enqueue }) => {
      enqueue.assign({
        pendingServer: null,
        // A retry asks the server first: the local copy is what it refused.
        localFirst: false,
        error: messageOf((event as { error?: unknown }).error),
      });
      enqueue.raise({ type: 'server.failed' });
    }),
    persistLoaded: enqueueActions(({ context, enqueue }) => {
      enqueue.assign({ draftRevision: context.draftRevision + 1 });
      enqueue.raise({ type: 'draft.persist' });
    }),
    loadFailed: assign({ error: ({ event }) => messageOf((event as { error?: unknown }).error) }),
    loadedTheirs: assign({
      conflict: ({ event }) => loadedOf(event).theirs!,
    }),
    mergePending: assign(({ event }) => ({
      merge: {
        pending: { ...(event as unknown as { output: MergeOutcome }).output, choices: {} },
        notice: null,
      },
    })),
    // The merge (with the user's choices, if any) replaces the content as one undoable step, on top of
    // the server's version, and is saved next.
    mergeApplied: enqueueActions(({ context, event, enqueue }) => {
      const pending = context.merge.pending;
      const outcome = pending ?? (event as unknown as { output: MergeOutcome }).output;
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
    }),
    chooseOne: assign(({ context, event }) => {
      if (event.type !== 'conflict.choose' || !context.merge.pending) return {};
      const pending = context.merge.pending;
      return {
        merge: {
          ...context.merge,
          pending: { ...pending, choices: { ...pending.choices, [event.key]: event.side } },
        },
      };
    }),
    chooseEverywhere: assign(({ context, event }) => {
      if (event.type !== 'conflict.chooseAll' || !context.merge.pending) return {};
      const pending = context.merge.pending;
      return {
        merge: { ...context.merge, pending: { ...pending, choices: chooseAll(pending, event.side) } },
      };
    }),
    dismissMerge: assign(({ context }) => ({ merge: { ...context.merge, notice: null } })),
    startSave: assign(({ context }) => ({
      saving: { content: context.doc.content, seq: context.seq, top: top(context.doc) },
      error: null,
      problems: [],
    })),
    saved: enqueueActions(({ context, event, enqueue }) => {
      const out = (event as unknown as { output: SaveResult }).output;
      const snapshot = context.saving!;
      enqueue.assign({
        baseVersion: out.version,
        savedContent: snapshot.content,
        savedMark: { top: snapshot.top },
        changes: context.changes.filter((r) => r.seq > snapshot.seq),
        clearLogUpTo: snapshot.seq,
        saving: null,
        attempt: 0,
        source: context.source === 'offline' ? 'server' : context.source,
        setAside: null,
        problems: out.problems,
        draftRevision: context.draftRevision + 1,
      });
      enqueue.raise({ type: 'draft.persist' });
    }),
    rulesRefused: assign(({ context }) => ({
      problems: blocksSave(checkContent(context.doc.content, { projectType: context.project!.type })),
      error: null,
    })),
    saveFailed: assign(({ event }) => {
      const err = (event as { error?: unknown }).error;
      return { saving: null, error: messageOf(err), problems: problemsOf(err) };
    }),
    wentOffline: assign({ saving: null, attempt: ({ context }) => context.attempt + 1, online: false }),
    gotConflict: assign(({ event }) => ({
      saving: null,
      conflict: serverCopyOf((event as { error?: unknown }).error),
    })),
    becameReadOnly: assign(({ context, event }) => ({
      saving: null,
      error: messageOf((event as { error?: unknown }).error),
      project: context.project && { ...context.project, editable: false },
    })),
    keepMine: assign(({ context }) => ({
      baseVersion: context.conflict!.version,
      savedContent: context.conflict!.content,
      savedMark: null,
      conflict: null,
    })),
    takeTheirs: enqueueActions(({ context, enqueue }) => {
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
        changes: [row(context, seq, '010', context.project?.name ?? '', 'server')],
        clearLogUpTo: context.seq,
        draftRevision: context.draftRevision + 1,
      });
      enqueue.raise({ type: 'draft.persist' });
    }),
    restoreDraft: enqueueActions(({ context, enqueue }) => {
      if (!context.setAside) return;
      enqueue.assign({
        doc: openDoc(context.setAside.content),
        savedMark: null,
        source: 'draft',
        setAside: null,
        draftRevision: context.draftRevision + 1,
      });
      enqueue.raise({ type: 'draft.changed' });
    }),
    draftWritten: assign(({ context, event }) => {
      const out = (
        event as unknown as { output: { revision: number; seq: number; clearUpTo: number | null } }
      ).output;
      return {
        writtenRevision: out.revision,
        writtenSeq: Math.max(context.writtenSeq, out.seq),
        // A save may have asked for more clearing while this write ran.
        clearLogUpTo: context.clearLogUpTo === out.clearUpTo ? null : context.clearLogUpTo,
        draftError: null,
      };
    }),
    draftFailed: assign(({ context, event }) => ({
      draftError: messageOf((event as { error?: unknown }).error),
      // Give up on this revision; the next change tries again.
      writtenRevision: context.draftRevision,
    })),
    setOnline: assign({ online: true }),
    setOffline: assign({ online: false }),
  },
}).createMachine({
  id: 'editor',
  type: 'parallel',
  context: ({ input }) => ({
    pid: input.pid,
    userId: input.userId,
    db: input.db ?? appDB(),
    project: null,
    doc: openDoc({ questionnaires: [], portraits: [] }),
    baseVersion: 0,
    savedContent: null,
    savedMark: null,
    source: null,
    setAside: null,
    changes: [],
    seq: 0,
    writtenSeq: 0,
    clearLogUpTo: null,
    draftRevision: 0,
    writtenRevision: 0,
    draftError: null,
    saving: null,
    conflict: null,
    merge: NO_MERGE,
    error: null,
    problems: [],
    localFirst: input.localFirst ?? false,
    pendingServer: null,
    attempt: 0,
    online: typeof navigator === 'undefined' ? true : navigator.onLine !== false,
  }),
  invoke: { src: 'networkWatcher' },
  on: {
    'network.online': { actions: 'setOnline' },
    'network.offline': { actions: 'setOffline' },
    'merge.dismiss': { actions: 'dismissMerge' },
  },
  states: {
    doc: {
      initial: 'starting',
      states: {
        // Opened already (the input's `opened`): straight to the state the copy opens in, as the
        // load's answer would; otherwise loading. Taken when the actor is created, so its first
        // snapshot is already the opened project.
        starting: {
          always: [
            {
              guard: and(['openedAtStart', 'readOnly']),
              target: 'readOnly',
              actions: ['loaded', 'startCheck'],
            },
            {
              guard: and(['openedAtStart', 'dirtyAtLoad']),
              target: 'editing',
              actions: ['loaded', 'startCheck'],
            },
            { guard: 'openedAtStart', target: 'saved', actions: ['loaded', 'startCheck'] },
            { target: 'loading' },
          ],
        },
        loading: {
          invoke: {
            src: 'loadProject',
            input: ({ context }) => ({
              pid: context.pid,
              userId: context.userId,
              db: context.db,
              localFirst: context.localFirst,
            }),
            onDone: [
              { guard: 'readOnly', target: 'readOnly', actions: ['loaded', 'startCheck'] },
              { guard: 'mergeAtLoad', target: 'merging', actions: ['loaded', 'loadedTheirs'] },
              { guard: 'dirtyAtLoad', target: 'editing', actions: ['loaded', 'startCheck'] },
              { guard: 'persistAtLoad', target: 'saved', actions: ['loaded', 'persistLoaded'] },
              { target: 'saved', actions: ['loaded', 'startCheck'] },
            ],
            onError: { target: 'loadFailed', actions: 'loadFailed' },
          },
        },
        loadFailed: {
          on: { 'load.retry': 'loading' },
        },
        readOnly: {
          on: { 'server.failed': 'loadFailed' },
        },
        saved: {
          on: {
            ...afterLocalOpen,
            ...editable,
            'log.record': { actions: 'recordExternal' },
            'draft.changed': 'editing',
            'draft.restore': { actions: 'restoreDraft' },
          },
        },
        editing: {
          on: {
            ...afterLocalOpen,
            ...editableToSaved,
            'log.record': { actions: 'recordExternal' },
            'draft.restore': { actions: 'restoreDraft' },
            'project.save': [
              { guard: 'blockedByRules', target: 'failed', actions: 'rulesRefused' },
              { target: 'saving' },
            ],
            // A retry after fixing what a failed save complained about (the fix moved us here).
            'save.retry': [
              { guard: 'blockedByRules', target: 'failed', actions: 'rulesRefused' },
              { target: 'saving' },
            ],
          },
        },
        saving: {
          entry: 'startSave',
          invoke: {
            src: 'saveToServer',
            input: ({ context }) => ({
              pid: context.pid,
              content: context.saving!.content,
              baseVersion: context.baseVersion,
            }),
            onDone: [
              { guard: 'changedWhileSaving', target: 'editing', actions: 'saved' },
              { target: 'saved', actions: 'saved' },
            ],
            onError: [
              { guard: 'networkError', target: 'offline', actions: 'wentOffline' },
              { guard: 'stale', target: 'merging', actions: 'gotConflict' },
              { guard: 'notEditable', target: 'readOnly', actions: 'becameReadOnly' },
              { target: 'failed', actions: 'saveFailed' },
            ],
          },
          on: { ...editable, 'log.record': { actions: 'recordExternal' } },
        },
        offline: {
          after: { retry: 'saving' },
          on: {
            ...afterLocalOpen,
            ...editable,
            'log.record': { actions: 'recordExternal' },
            'network.online': { target: 'saving', actions: 'setOnline' },
            'project.save': 'saving',
          },
        },
        merging: {
          invoke: {
            src: 'mergeWithServer',
            input: ({ context }) => ({
              pid: context.pid,
              mine: context.doc.content,
              base: context.savedContent,
              baseVersion: context.baseVersion,
              theirs: context.conflict!,
            }),
            onDone: [
              { guard: 'mergeConflicted', target: 'conflict', actions: 'mergePending' },
              { target: 'saving', actions: 'mergeApplied' },
            ],
            // The base could not be had (offline): the whole-copy choice, as before merging existed.
            onError: { target: 'conflict' },
          },
        },
        conflict: {
          on: {
            'conflict.keepMine': { target: 'saving', actions: 'keepMine' },
            'conflict.takeTheirs': { target: 'saved', actions: 'takeTheirs' },
            'conflict.choose': { actions: 'chooseOne' },
            'conflict.chooseAll': { actions: 'chooseEverywhere' },
            'conflict.resolve': { target: 'saving', actions: 'mergeApplied' },
          },
        },
        failed: {
          on: {
            ...afterLocalOpen,
            ...editableToSaved,
            'log.record': { actions: 'recordExternal' },
            'draft.changed': 'editing',
            'save.retry': [
              { guard: 'blockedByRules', target: 'failed', reenter: true, actions: 'rulesRefused' },
              { target: 'saving' },
            ],
            'project.save': [
              { guard: 'blockedByRules', target: 'failed', reenter: true, actions: 'rulesRefused' },
              { target: 'saving' },
            ],
          },
        },
      },
    },
    // Opened from the local copy: the server's answer, awaited beside the editing (issue 25).
    check: {
      initial: 'idle',
      states: {
        idle: { on: { 'check.start': 'waiting' } },
        waiting: {
          invoke: {
            src: 'checkServer',
            input: ({ context }) => ({ pending: context.pendingServer! }),
            onDone: { target: 'idle', actions: 'serverAnswered' },
            onError: [
              { guard: 'networkError', target: 'idle', actions: 'serverUnreachable' },
              { target: 'idle', actions: 'serverRefused' },
            ],
          },
        },
      },
    },
    autosave: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'draft.changed': 'waiting', 'draft.persist': 'waiting' },
        },
        waiting: {
          // Not restarted by further changes: while someone types, the draft is written every
          // AUTOSAVE_MS with everything typed since, one transaction each, never one per keystroke.
          after: { autosave: 'writing' },
          on: { 'draft.flush': 'writing' },
        },
        writing: {
          invoke: {
            src: 'persistDraft',
            input: ({ context }) => ({
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
            }),
            onDone: [
              { guard: 'draftBehind', target: 'waiting', actions: 'draftWritten' },
              { target: 'idle', actions: 'draftWritten' },
            ],
            onError: { target: 'idle', actions: 'draftFailed' },
          },
        },
      },
    },
  },
});

/** The save state the page shows, one word per doc state. */
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
