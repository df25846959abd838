import { fromPromise } from 'xstate';
import { fetchProject } from '../../api/content';
import { appDB } from '../../db/AppDB';
import { readDraft, storedDraftOf, type StoredDraft } from '../../db/drafts';
import { editorMachine } from '../../machines/editor/machine';
import { openedLocally, openProject, type Loaded, type ProjectSources } from '../../machines/editor/open';
import { prefetchLayout } from '../../workers/layoutClient';
import { takeOpenedProject } from './earlyFetch';

// Opening /project straight away (a reload, a link): the project's two copies, the server's and the
// draft in Dexie, are asked for beside the sign-in's restore rather than after it (the page cannot
// render the editor before it knows the user): the server's by the app's first script
// (earlyFetch.ts), the draft and the canvas's cached positions when the editor's chunk arrives. The editor
// machine takes them once, for the same project and user and while fresh; anything else (another
// project, a refresh, a later visit) reads both anew.

const FRESH_MS = 10_000;

let pending: {
  pid: number;
  userId: number;
  at: number;
  sources: ProjectSources;
  /** The local copy's read once it has finished: what it found, or null when it failed. */
  settled?: StoredDraft | null;
} | null = null;

export function prefetchProject(): void {
  const opened = takeOpenedProject();
  if (!opened) return;
  const { pid, userId, local } = opened;
  // The local copy as the first script read it, or through Dexie when it could not (or did not).
  const early = local ?? Promise.resolve(null);
  const sources: ProjectSources = {
    stored: early.then((e) => (e ? storedDraftOf(e.draft, e.rows, userId) : readDraft(appDB(), pid, userId))),
    server: opened.server ?? fetchProject(pid),
  };
  // Read later or never: no rejection may go unhandled meanwhile.
  sources.stored.catch(() => {});
  sources.server.catch(() => {});
  const entry: NonNullable<typeof pending> = { pid, userId, at: Date.now(), sources };
  pending = entry;
  sources.stored.then(
    (stored) => void (entry.settled = stored),
    () => void (entry.settled = null),
  );
  // The canvas's cached positions too: a structure unchanged since the last visit opens with them.
  prefetchLayout(
    appDB(),
    pid,
    early.then((e) => (e ? e.layout : appDB().layouts.get(pid))),
  );
}

/** The reads started at load for this project and user, handed out once; null otherwise. */
export function takePrefetched(pid: number, userId: number, db: unknown): ProjectSources | null {
  const p = pending;
  pending = null;
  if (!p || p.pid !== pid || p.userId !== userId || db !== appDB() || Date.now() - p.at > FRESH_MS)
    return null;
  return p.sources;
}

/** The local copy's read started at load for this project and user while it is under way; null otherwise. */
export function localReadUnderWay(pid: number, userId: number): Promise<unknown> | null {
  const p = pending;
  return p && p.settled === undefined && p.pid === pid && p.userId === userId ? p.sources.stored : null;
}

/**
 * The project opened from its local copy when the read started at load has already found this
 * user's draft: the editor machine starts with it (`EditorInput.opened`) and the page's first
 * render shows the outline. Taken once, as takePrefetched; null otherwise, and the machine then
 * loads, taking the reads itself.
 */
export function takeOpenedLocally(pid: number, userId: number, db: unknown): Loaded | null {
  const p = pending;
  if (!p?.settled?.draft || p.pid !== pid || p.userId !== userId || db !== appDB()) return null;
  if (Date.now() - p.at > FRESH_MS) return null;
  pending = null;
  // The benchmarks and the e2e test read which way the editor opened.
  performance.mark('editor:opened-at-start');
  return openedLocally(p.settled, p.sources.server);
}

/** The editor machine opening with the reads started at load, when there are some. */
export const prefetchingEditorMachine = editorMachine.provide({
  actors: {
    loadProject: fromPromise(({ input }: { input: Parameters<typeof openProject>[0] }) =>
      openProject(input, takePrefetched(input.pid, input.userId, input.db) ?? undefined),
    ),
  },
});
