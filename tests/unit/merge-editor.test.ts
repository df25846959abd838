import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/client';
import { chooseAll, mergedStep, noticeOf, runMerge } from '../../src/machines/editor/merge';
import { openDoc, undo } from '../../src/domain/content/history';
import { performCommand } from '../../src/domain/content/commands';
import type { ProjectContent } from '../../src/domain/content/model';
import type { VersionDocument } from '../../src/domain/content/versions';
import { bigProject } from './content-fixtures';

// The editor's side of merging: where the base comes from, the merged content as one undoable
// step, and what the notice says.

const start = () => structuredClone(bigProject({ blocks: 2, questions: 2, answers: 2 }));
const reword = (c: ProjectContent, id: string, text: string) =>
  performCommand(c, { type: 'question.update', questionId: id, patch: { text } })!.content;
const texts = (c: ProjectContent) =>
  c.questionnaires[0].blocks.flatMap((b) => b.questions.map((q) => q.text));
const asVersion = (content: ProjectContent, version: number) =>
  Promise.resolve({ version, savedAt: 0, savedBy: null, summary: null, content } as VersionDocument);

describe('merging in the editor', () => {
  it('fetches the base from the history when it is not known here', async () => {
    const base = start();
    const mine = reword(base, 'q0_0', 'mine');
    const theirs = reword(base, 'q1_1', 'theirs');
    const asked: number[] = [];
    const out = await runMerge(
      { pid: 7, mine, base: null, baseVersion: 4, theirs: { version: 5, updatedAt: 1, content: theirs } },
      (pid, version) => {
        asked.push(pid, version);
        return asVersion(base, version);
      },
    );
    expect(asked).toEqual([7, 4]);
    expect(out.result.conflicts).toEqual([]);
    expect(texts(out.result.content)).toContain('mine');
    expect(texts(out.result.content)).toContain('theirs');
    expect(out.incoming).toEqual([{ code: '008', label: 'theirs' }]);
    expect(noticeOf(out)).toEqual({ version: 5, incoming: out.incoming, broken: [] });
  });

  it('with a base no longer kept, every item the sides hold differently is a conflict', async () => {
    const base = start();
    const mine = reword(base, 'q0_0', 'mine');
    const theirs = reword(base, 'q1_1', 'theirs');
    const out = await runMerge(
      { pid: 7, mine, base: null, baseVersion: 2, theirs: { version: 130, updatedAt: 1, content: theirs } },
      () => Promise.reject(new ApiError('Version 2 is not kept', 404, null, null, 'http')),
    );
    expect(out.result.conflicts.map((c) => c.id).sort()).toEqual(['q0_0', 'q1_1']);
    // A network failure is not a missing base: the merge fails and the editor falls back.
    await expect(
      runMerge(
        { pid: 7, mine, base: null, baseVersion: 2, theirs: { version: 3, updatedAt: 1, content: theirs } },
        () => Promise.reject(new ApiError('offline', 0, null, null, 'network')),
      ),
    ).rejects.toThrow('offline');
  });

  it('applies the merge as one undoable step, and the choices merge again', async () => {
    const base = start();
    const mine = reword(reword(base, 'q0_0', 'mine'), 'q0_1', 'only mine');
    const theirs = reword(base, 'q0_0', 'theirs');
    const out = await runMerge({
      pid: 1,
      mine,
      base,
      baseVersion: 1,
      theirs: { version: 2, updatedAt: 1, content: theirs },
    });
    expect(out.result.conflicts).toHaveLength(1);
    const doc = openDoc(mine);
    const step = mergedStep(doc, out, chooseAll(out, 'theirs'))!;
    expect(step.change).toEqual({ code: '010', label: '2', kind: 'edit' });
    expect(texts(step.doc.content).slice(0, 2)).toEqual(['theirs', 'only mine']);
    expect(undo(step.doc)!.doc.content).toEqual(mine);
    // Everything already as mine: nothing to apply.
    expect(mergedStep(openDoc(mine), { ...out, result: { ...out.result, content: mine } })).toBeNull();
  });
});
