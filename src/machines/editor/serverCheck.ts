import { fromPromise } from 'xstate';
import type { ProjectDocument } from '../../api/content';
import { changeRow } from '../../domain/content/changeRow';
import { openDoc } from '../../domain/content/history';
import { editorSetup, errorOf, messageOf, outputOf } from './context';
import { serverContentOf } from './open';

// After opening from the local copy (open.ts, source 'local'), the server's answer is awaited in
// the machine's `check` region, beside the editing, and taken in wherever the document is by then
// (issue 25): the same version changes nothing on screen; a newer one replaces a copy without
// edits, or is merged with the edits (three-way, the base from the history when the draft does not
// keep it); a read-only answer makes the editor read-only; a refusal is a failed load.

/** The server's answer the page's early read already asked for. */
export const checkServer = fromPromise<ProjectDocument, { pending: Promise<ProjectDocument> }>(
  ({ input }) => input.pending,
);

export const serverAnswered = editorSetup.enqueueActions(({ context, event, enqueue }) => {
  const server = outputOf<ProjectDocument>(event);
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
      changes: [changeRow(context.pid, seq, '010', project.name, 'server')],
      clearLogUpTo: context.seq,
      draftRevision: context.draftRevision + 1,
    });
    enqueue.raise({ type: 'draft.persist' });
  } else {
    enqueue.assign({ source: 'draft', conflict: { version, updatedAt, content: serverContent } });
    enqueue.raise({ type: 'server.newer' });
  }
});

export const serverUnreachable = editorSetup.assign({
  pendingServer: null,
  source: 'offline' as const,
  online: false,
});

export const serverRefused = editorSetup.enqueueActions(({ event, enqueue }) => {
  enqueue.assign({
    pendingServer: null,
    // A retry asks the server first: the local copy is what it refused.
    localFirst: false,
    error: messageOf(errorOf(event)),
  });
  enqueue.raise({ type: 'server.failed' });
});
