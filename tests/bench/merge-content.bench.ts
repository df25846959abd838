import { performCommand, type Command } from '../../src/domain/content/commands';
import { mergeContent } from '../../src/domain/content/merge';
import { summarizeChanges } from '../../src/domain/content/diff';
import { flatten } from '../../src/domain/content/flat';
import { checkContent } from '../../src/domain/content/rules';
import type { ProjectContent } from '../../src/domain/content/model';
import { bigProject } from '../unit/content-fixtures';
import { median, type BenchResult } from './run';

// Issue #16: merging 200 local edits onto 200 remote ones at 1 000 questions (50 blocks × 20 × 5
// answers), the work a 412 or a reload with an old draft does before saving. The edits are of every
// common kind (texts, answers added and deleted, questions moved and deleted, blocks renamed) and
// land on different items, so the merge is complete with no conflict.

export const title = 'Three-way merge (1 000 questions, Node)';

function edits(side: 0 | 1): Command[] {
  const out: Command[] = [];
  for (let b = side; b < 50; b += 2) {
    out.push({ type: 'block.update', blockId: `b${b}`, patch: { name: `Renamed ${b}` } });
    for (let q = 0; q < 4; q++)
      out.push({ type: 'question.update', questionId: `q${b}_${q}`, patch: { text: `edit ${side}` } });
    out.push({ type: 'answer.add', questionId: `q${b}_5`, answer: { id: `x${side}_${b}`, text: 'new' } });
    out.push({ type: 'answer.delete', questionId: `q${b}_6`, answerId: `a${b}_6_0` });
    out.push({ type: 'question.move', questionId: `q${b}_7`, toBlockId: `b${b}`, index: 0 });
  }
  return out.slice(0, 200);
}

function apply(content: ProjectContent, commands: Command[]): ProjectContent {
  for (const c of commands) content = performCommand(content, c)?.content ?? content;
  return content;
}

export default async function mergeBench(): Promise<BenchResult[]> {
  const base = bigProject();
  const mine = apply(base, edits(0));
  // The server's copy arrives as JSON (a 412 answer): no object is shared with the base.
  const theirs = JSON.parse(JSON.stringify(apply(base, edits(1)))) as ProjectContent;
  const check = mergeContent(base, mine, theirs);
  if (check.conflicts.length > 0) throw new Error('the bench edits should not conflict');
  return [
    {
      name: 'merge 200 local edits onto 200 remote ones',
      value: await median(() => mergeContent(base, mine, theirs), 20, 3),
      unit: 'ms',
      budget: 50,
      note: 'includes the redirect check of the result',
    },
    {
      name: 'what came in: the change summary of the server copy against the base',
      value: await median(() => summarizeChanges(base, theirs), 20, 3),
      unit: 'ms',
      note: 'for the notice after a merge; computed beside the merge',
    },
    {
      name: 'reference: rules, whole check of the same content',
      value: await median(() => checkContent(base, { projectType: 1 }), 20, 3),
      unit: 'ms',
      note: 'the content bench measures this beside its 10 ms budget: scale by it on a busy machine',
    },
    {
      name: 'reference: flatten one content by item id',
      value: await median(() => flatten(base), 20, 3),
      unit: 'ms',
    },
  ];
}
