import { fromPromise } from 'xstate';
import { ApiError } from '../../api/client';
import type { ServerCopy } from '../../api/content';
import { fetchVersion } from '../../api/versions';
import { summarizeChanges, type ChangeSummary } from '../../domain/content/diff';
import { edit, type EditorDoc, type Step } from '../../domain/content/history';
import { mergeContent, type Choices, type MergeResult, type Side } from '../../domain/content/merge';
import { EMPTY_CONTENT, type ProjectContent } from '../../domain/content/model';
import type { Problem } from '../../domain/content/problems';

// The editor's merge with the server's version (issue #16), used by the editor machine on a 412 at
// save and at load when the draft is based on an older version than the server's: the version
// both started from (known locally, or fetched from the history), the draft and the server copy
// are merged by item id (src/domain/content/merge.ts). Without conflicts the result replaces the
// content as one undoable step and is saved; with conflicts the user chooses per item, and the
// choices are merged again.

export interface MergeInput {
  pid: number;
  mine: ProjectContent;
  /** The content at baseVersion when known here; null: fetch it from the server's history. */
  base: ProjectContent | null;
  baseVersion: number;
  theirs: ServerCopy;
}

export interface MergeOutcome {
  base: ProjectContent;
  mine: ProjectContent;
  theirs: ServerCopy;
  result: MergeResult;
  /** What the other side changed (codes 001–013 with labels), for the notice after the merge. */
  incoming: ChangeSummary[];
}

/** What the editor keeps about merging: conflicts waiting for choices, and the notice of the last merge. */
export interface MergeState {
  pending: (MergeOutcome & { choices: Choices }) | null;
  notice: { version: number; incoming: ChangeSummary[]; broken: Problem[] } | null;
}

export const NO_MERGE: MergeState = { pending: null, notice: null };

export async function runMerge(input: MergeInput, load = fetchVersion): Promise<MergeOutcome> {
  let base = input.base;
  if (!base) {
    if (input.baseVersion === 0) base = EMPTY_CONTENT;
    else
      try {
        base = (await load(input.pid, input.baseVersion)).content;
      } catch (err) {
        // The base is no longer kept: merge as if both sides had added everything, so every item
        // they hold differently becomes a conflict and nothing is taken silently.
        if (err instanceof ApiError && err.status === 404) base = EMPTY_CONTENT;
        else throw err;
      }
  }
  return {
    base,
    mine: input.mine,
    theirs: input.theirs,
    result: mergeContent(base, input.mine, input.theirs.content),
    incoming: summarizeChanges(base, input.theirs.content),
  };
}

export const mergeWithServer = fromPromise<MergeOutcome, MergeInput>(({ input }) => runMerge(input));

/** The merged content (with the user's choices, if any) as one undoable step of the document. */
export function mergedStep(doc: EditorDoc, outcome: MergeOutcome, choices?: Choices): Step | null {
  const result = choices
    ? mergeContent(outcome.base, outcome.mine, outcome.theirs.content, choices)
    : outcome.result;
  return edit(doc, {
    type: 'content.replace',
    content: result.content,
    label: String(outcome.theirs.version),
  });
}

/** Every conflict decided the same way. */
export function chooseAll(outcome: MergeOutcome, side: Side): Choices {
  return Object.fromEntries(outcome.result.conflicts.map((c) => [c.key, side]));
}

/** What the notice says after a merge: what came in, and the redirects it broke. */
export function noticeOf(outcome: MergeOutcome, choices?: Choices): MergeState['notice'] {
  const broken = choices
    ? mergeContent(outcome.base, outcome.mine, outcome.theirs.content, choices).broken
    : outcome.result.broken;
  return { version: outcome.theirs.version, incoming: outcome.incoming, broken };
}
