import { and, setup } from 'xstate';
import { openDoc } from '../../domain/content/history';
import { autosaveMachine, draftWriteOf } from './autosave';
import {
  chooseEverywhere,
  chooseOne,
  conflictGuards,
  dismissMerge,
  gotConflict,
  keepMine,
  mergeApplied,
  mergePending,
  takeTheirs,
} from './conflict';
import { appDB } from '../../db/AppDB';
import type { EditorContext, EditorEvent, EditorInput } from './context';
import { applyEdit, applyRedo, applyUndo, editingGuards, recordExternal, restoreDraft } from './editing';
import { draftCaughtUp, draftFailed, draftWritten, tellAutosave } from './draft';
import { mergeWithServer, NO_MERGE } from './merge';
import { networkWatcher, setOffline, setOnline } from './network';
import { loaded, loadedTheirs, loadFailed, loadProject, openGuards, persistLoaded, startCheck } from './open';
import { saveToServer } from './persistence';
import {
  becameReadOnly,
  retryDelay,
  rulesRefused,
  saved,
  saveFailed,
  saveGuards,
  startSave,
  wentOffline,
} from './save';
import { checkServer, serverAnswered, serverRefused, serverUnreachable } from './serverCheck';

// The project editor's statechart (DESIGN.md section 6), without its screens. Three regions:
//   doc: loading → editing ↔ saving → saved, with offline (the save waits for the network and
//     retries with backoff), merging (a 412, or a draft based on an older version: merged with the
//     server's version by item id, then saved), conflict (items changed on both sides: the user
//     chooses per item), failed (retry) and readOnly (the project is not editable for this user now);
//   check: after opening from the local copy, the server's answer awaited beside the editing;
//   autosave: the draft written to Dexie at most every AUTOSAVE_MS.
// Everything it calls is named in setup below and lives in a file of this folder that says what it
// is about: open.ts (how a project is opened), serverCheck.ts, editing.ts (edit, undo, redo),
// save.ts, conflict.ts and merge.ts, draft.ts and its child autosave.ts, persistence.ts (the
// writes), network.ts;
// context.ts holds the context and the events. docs/architecture.md draws the chart.

/** Editing while the document stays where it is. */
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

/** A save asked for: refused at once when the rules block it, else sent. */
const trySave = (reenter: boolean) =>
  [
    { guard: 'blockedByRules', target: 'failed', reenter, actions: 'rulesRefused' },
    { target: 'saving' },
  ] as const;

export const editorMachine = setup({
  types: {
    context: {} as EditorContext,
    events: {} as EditorEvent,
    input: {} as EditorInput,
  },
  actors: {
    loadProject,
    checkServer,
    saveToServer,
    mergeWithServer,
    autosave: autosaveMachine,
    networkWatcher,
  },
  delays: {
    retry: retryDelay,
  },
  guards: {
    ...openGuards,
    ...editingGuards,
    ...saveGuards,
    ...conflictGuards,
    draftCaughtUp,
  },
  actions: {
    // open.ts
    loaded,
    startCheck,
    persistLoaded,
    loadFailed,
    loadedTheirs,
    // serverCheck.ts
    serverAnswered,
    serverUnreachable,
    serverRefused,
    // editing.ts
    applyEdit,
    applyUndo,
    applyRedo,
    recordExternal,
    restoreDraft,
    // save.ts
    startSave,
    saved,
    rulesRefused,
    saveFailed,
    wentOffline,
    becameReadOnly,
    // conflict.ts
    gotConflict,
    mergePending,
    mergeApplied,
    chooseOne,
    chooseEverywhere,
    dismissMerge,
    keepMine,
    takeTheirs,
    // draft.ts
    tellAutosave,
    draftWritten,
    draftFailed,
    // network.ts
    setOnline,
    setOffline,
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
            'project.save': trySave(false),
            // A retry after fixing what a failed save complained about (the fix moved us here).
            'save.retry': trySave(false),
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
            'save.retry': trySave(true),
            'project.save': trySave(true),
          },
        },
      },
    },
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
    // The draft in Dexie: the autosave child (autosave.ts) writes it; this region says whether it lags.
    autosave: {
      invoke: {
        id: 'autosave',
        src: 'autosave',
        input: ({ self }) => ({ read: () => draftWriteOf(self.getSnapshot().context), parent: self }),
      },
      initial: 'idle',
      states: {
        idle: {
          on: {
            'draft.changed': { target: 'behind', actions: 'tellAutosave' },
            'draft.persist': { target: 'behind', actions: 'tellAutosave' },
          },
        },
        behind: {
          on: {
            'draft.changed': { actions: 'tellAutosave' },
            'draft.persist': { actions: 'tellAutosave' },
            'draft.flush': { actions: 'tellAutosave' },
            'draft.written': [
              { guard: 'draftCaughtUp', target: 'idle', actions: 'draftWritten' },
              { actions: 'draftWritten' },
            ],
            'draft.failed': { target: 'idle', actions: 'draftFailed' },
          },
        },
      },
    },
  },
});
