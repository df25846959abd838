import { fromPromise } from 'xstate';
import { ApiError } from '../../api/client';
import { fetchProject, type ProjectDocument, type ServerCopy } from '../../api/content';
import type { AppDB, Draft } from '../../db/AppDB';
import { readDraft, type StoredDraft } from '../../db/drafts';
import type { ChangeLogRow } from '../../domain/content/changelog';
import { newQuestionnaire } from '../../domain/content/factory';
import { openDoc } from '../../domain/content/history';
import { DEFAULT_SOURCE_LANGUAGE, isSupportedLanguage } from '../../domain/content/languages';
import type { EditorProject, ProjectContent } from '../../domain/content/model';
import { editorSetup, errorOf, messageOf, type EditorInput } from './context';

// How a project is opened: its two copies, the server's and the draft kept in this browser (Dexie),
// read at once, and the one to show chosen (docs/decisions/editor.md, "Opening"):
//   - server: no draft, a clean one, or a read-only project;
//   - draft: edits based on the server's current version (ahead of it), or on an older one
//     (then merged with the server's version before editing: `theirs`, the machine's `merging`);
//   - offline: the server unreachable, the draft shown as it is;
//   - local: opened from the draft before the server answers (issue 25), the answer awaited by
//     serverCheck.ts.
// The machine's loading state invokes `loadProject`; the actions below take its answer in.

/** How the content on screen was chosen at load (the user is told which). */
export type Source = 'server' | 'draft' | 'offline' | 'serverNewer' | 'local';

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

export type OpenInput = { pid: number; userId: number; db: AppDB; localFirst?: boolean };

/**
 * Opens a project: the server copy and the Dexie draft, the newer one wins. A draft with changes
 * based on the current server version is ahead of it; one based on an older version wins only if
 * it was written after the server's last save (then the next save meets a 412 and the user chooses).
 */
export const loadProject = fromPromise<Loaded, OpenInput>(({ input }) => openProject(input));

/** The interface's language (the page's `lang`), which a new questionnaire is written in. */
const interfaceLanguage = (): string | undefined =>
  typeof document === 'undefined' ? undefined : document.documentElement.lang || undefined;

/**
 * The server's copy as the editor opens it: a new project gets one empty questionnaire, in the
 * interface's language (a researcher working in English writes English texts; content with no
 * `languages` reads as Russian, and a source can be chosen only before the first question).
 */
export function serverContentOf(server: ProjectDocument, ui = interfaceLanguage()): ProjectContent {
  if (!server.editable || server.content.questionnaires.length > 0) return server.content;
  const fresh = { ...server.content, questionnaires: [newQuestionnaire({ blocks: [] })] };
  if (!fresh.languages && ui && ui !== DEFAULT_SOURCE_LANGUAGE && isSupportedLanguage(ui))
    fresh.languages = [ui];
  return fresh;
}

/** The draft as it is, shown without the server's word (offline, or before the server answers). */
function asStored(stored: StoredDraft, source: 'offline' | 'local'): Loaded {
  const d = stored.draft!;
  return {
    project: d.project,
    content: d.content,
    baseVersion: d.baseVersion,
    // A dirty draft's base is not kept here: a merge fetches it from the history.
    savedContent: d.dirty ? null : d.content,
    source,
    setAside: null,
    changes: stored.rows,
    lastSeq: stored.lastSeq,
    clearLogUpTo: null,
    persist: false,
  };
}

/** The local copy, opened before the server answers; `pending` is that answer. */
export function openedLocally(stored: StoredDraft, pending: Promise<ProjectDocument>): Loaded {
  return { ...asStored(stored, 'local'), pending };
}

/** The two copies of a project, as promises: the draft in Dexie and the server's. */
export interface ProjectSources {
  stored: Promise<StoredDraft>;
  server: Promise<ProjectDocument>;
}

/**
 * Opens a project from its two copies; `sources` are reads already under way (the page starts
 * them while the app itself loads), otherwise both are started here.
 */
export async function openProject(input: OpenInput, sources?: ProjectSources): Promise<Loaded> {
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
    if (err instanceof ApiError && err.isNetwork && stored.draft) return asStored(stored, 'offline');
    throw err;
  }
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the content is taken apart from the rest
  const { content: fetched, version, updatedAt, ...meta } = server;
  const project: EditorProject = meta;
  // A new project opens with one empty questionnaire, so "Add block" has somewhere to add. It
  // counts as the server's copy (an empty questionnaire is as empty as none): nothing to save.
  const serverContent = serverContentOf(server);
  const d = stored.draft;
  if (!project.editable || !d || !d.dirty) {
    return {
      project,
      content: serverContent,
      baseVersion: version,
      savedContent: serverContent,
      source: 'server',
      setAside: null,
      changes: [],
      lastSeq: stored.lastSeq,
      // The rows kept with the draft go at the first write: the server's copy is the whole truth.
      clearLogUpTo: stored.lastSeq > 0 ? stored.lastSeq : null,
      persist: project.editable,
    };
  }
  const fromDraft = {
    project,
    content: d.content,
    baseVersion: d.baseVersion,
    source: 'draft' as const,
    setAside: null,
    changes: stored.rows,
    lastSeq: stored.lastSeq,
    clearLogUpTo: null,
    persist: false,
  };
  if (d.baseVersion === version) return { ...fromDraft, savedContent: serverContent };
  // The draft started from an older version than the server's: merged, not one or the other.
  return { ...fromDraft, savedContent: null, theirs: { version, updatedAt, content: serverContent } };
}

/** The opened project: a load's output, or the one the page handed in at the start (`opened`). */
export function loadedOf(event: unknown): Loaded {
  const e = event as { output?: Loaded; input?: EditorInput };
  return (e.output ?? e.input?.opened)!;
}

/** Guards on the opened copy: which state it opens in. */
export const openGuards = {
  readOnly: ({ event }: { event: unknown }) => !loadedOf(event).project.editable,
  dirtyAtLoad: ({ event }: { event: unknown }) => {
    const out = loadedOf(event);
    return out.content !== out.savedContent;
  },
  persistAtLoad: ({ event }: { event: unknown }) => loadedOf(event).persist,
  openedAtStart: ({ event }: { event: unknown }) =>
    (event as { type: string }).type === 'xstate.init' &&
    (event as { input?: EditorInput }).input?.opened !== undefined,
  mergeAtLoad: ({ event }: { event: unknown }) => loadedOf(event).theirs !== undefined,
};

/** The opened copy into the context. */
export const loaded = editorSetup.assign(({ event }) => {
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
});

/** Opened from the local copy: the server's answer is awaited beside the editing (serverCheck.ts). */
export const startCheck = editorSetup.enqueueActions(({ event, enqueue }) => {
  const out = loadedOf(event);
  if (!out.pending) return;
  enqueue.assign({ pendingServer: out.pending });
  enqueue.raise({ type: 'check.start' });
});

/** The server's copy, opened with no draft: written to Dexie at once, so it opens offline next time. */
export const persistLoaded = editorSetup.enqueueActions(({ context, enqueue }) => {
  enqueue.assign({ draftRevision: context.draftRevision + 1 });
  enqueue.raise({ type: 'draft.persist' });
});

export const loadFailed = editorSetup.assign({ error: ({ event }) => messageOf(errorOf(event)) });

/** A draft based on an older version: the server's copy is what it merges with. */
export const loadedTheirs = editorSetup.assign({ conflict: ({ event }) => loadedOf(event).theirs! });
