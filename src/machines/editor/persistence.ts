import { fromPromise } from 'xstate';
import { saveProject, type SaveResult } from '../../api/content';
import type { AppDB, Draft } from '../../db/AppDB';
import { writeDraft } from '../../db/drafts';
import type { ChangeLogRow } from '../../domain/content/changelog';
import type { ProjectContent } from '../../domain/content/model';

// The editor's two writes: the content to the server (a save, If-Match the version it is based on)
// and the draft with its new change-log rows to Dexie (one transaction, src/db/drafts.ts). The
// machine decides when; these only write.

export interface SaveInput {
  pid: number;
  content: ProjectContent;
  baseVersion: number;
}

export const saveToServer = fromPromise<SaveResult, SaveInput>(({ input }) =>
  saveProject(input.pid, input.content, input.baseVersion),
);

export interface DraftWriteInput {
  db: AppDB;
  draft: Draft;
  rows: ChangeLogRow[];
  clearUpTo: number | null;
  revision: number;
}

/** What a draft write reports: the revision it wrote, its last row's seq (-1: none) and the rows it cleared. */
export interface DraftWritten {
  revision: number;
  seq: number;
  clearUpTo: number | null;
}

export const persistDraft = fromPromise<DraftWritten, DraftWriteInput>(async ({ input }) => {
  await writeDraft(input.db, { draft: input.draft, rows: input.rows, clearUpTo: input.clearUpTo });
  return {
    revision: input.revision,
    seq: input.rows.length ? input.rows[input.rows.length - 1].seq : -1,
    clearUpTo: input.clearUpTo,
  };
});
