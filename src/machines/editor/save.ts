import { ApiError } from '../../api/client';
import { problemsOf, serverCopyOf, type SaveResult } from '../../api/content';
import { contentProblems } from '../../domain/content/checked';
import { blocksSave, type Problem } from '../../domain/content/problems';
import { topOf } from '../../domain/content/savedMark';
import { editorSetup, errorOf, messageOf, outputOf, type EditorContext } from './context';

// A save and what its answers do: saved (the draft's rows that reached the server are cleared),
// offline (retried with backoff, and at once when the network is back), stale (a 412: merged with
// the server's version, conflict.ts), not editable any more (a 409: read-only), refused by the
// rules (failed, with the problems listed). The save itself is persistence.ts's saveToServer.

export const RETRY_MAX_MS = 30_000;

/** The wait before an offline save tries again: 1 s, doubling per failed attempt, at most RETRY_MAX_MS. */
export const retryDelay = ({ context }: { context: EditorContext }) =>
  Math.min(RETRY_MAX_MS, 1000 * 2 ** Math.max(0, context.attempt - 1));

/**
 * The problems that keep the content from being saved, checked on the content of the moment (once
 * per content version: the problem list has usually checked it already).
 */
const blockingProblems = (context: EditorContext): Problem[] =>
  context.project === null ? [] : blocksSave(contentProblems(context.doc.content, context.project.type));

const isNetworkError = (err: unknown) => err instanceof ApiError && err.isNetwork;

export const saveGuards = {
  changedWhileSaving: ({ context }: { context: EditorContext }) =>
    context.saving !== null && context.doc.content !== context.saving.content,
  blockedByRules: ({ context }: { context: EditorContext }) => blockingProblems(context).length > 0,
  networkError: ({ event }: { event: unknown }) => isNetworkError(errorOf(event)),
  stale: ({ event }: { event: unknown }) => serverCopyOf(errorOf(event)) !== null,
  notEditable: ({ event }: { event: unknown }) => {
    const err = errorOf(event);
    return err instanceof ApiError && err.status === 409;
  },
};

/** The snapshot being saved: what it holds, the last change-log row it includes, its place in the history. */
export const startSave = editorSetup.assign(({ context }) => ({
  saving: { content: context.doc.content, seq: context.seq, top: topOf(context.doc) },
  error: null,
  problems: [],
}));

export const saved = editorSetup.enqueueActions(({ context, event, enqueue }) => {
  const out = outputOf<SaveResult>(event);
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
});

export const rulesRefused = editorSetup.assign(({ context }) => ({
  problems: blockingProblems(context),
  error: null,
}));

export const saveFailed = editorSetup.assign(({ event }) => {
  const err = errorOf(event);
  return { saving: null, error: messageOf(err), problems: problemsOf(err) };
});

export const wentOffline = editorSetup.assign({
  saving: null,
  attempt: ({ context }) => context.attempt + 1,
  online: false,
});

export const becameReadOnly = editorSetup.assign(({ context, event }) => ({
  saving: null,
  error: messageOf(errorOf(event)),
  project: context.project && { ...context.project, editable: false },
}));
