import { useDeferredValue, useMemo } from 'react';
import { checkContent } from '../../domain/content/rules';
import type { Problem } from '../../domain/content/problems';
import type { ProjectContent } from '../../domain/content/model';
import { EditorActor } from './editorActor';

// The rules run once per content version however many parts of the page list or draw the problems
// (the side panel, the canvas): content objects are immutable, so they key a WeakMap.
//
// They run a frame after an edit, not in it: the content is read through useDeferredValue, so the
// edit itself (the text, the outline, the canvas) is committed first and the problem list, its
// count and the canvas's problem marks follow in a render of their own (about 6 ms of rules at
// 1 000 questions). Saving and sending check the content of the moment themselves (the machine).
const checked = new WeakMap<ProjectContent, Map<number, Problem[]>>();

function check(content: ProjectContent, type: number): Problem[] {
  let byType = checked.get(content);
  if (!byType) checked.set(content, (byType = new Map()));
  let problems = byType.get(type);
  if (!problems) byType.set(type, (problems = checkContent(content, { projectType: type })));
  return problems;
}

export interface Checked {
  /** The content the problems were found in (their paths are indexes into it). */
  content: ProjectContent;
  problems: Problem[];
}

/** Every problem of the content (the rules run after each edit) and those the server reported. */
export function useChecked(): Checked {
  const current = EditorActor.useSelector((s) => s.context.doc.content);
  const content = useDeferredValue(current);
  const type = EditorActor.useSelector((s) => s.context.project?.type ?? 1);
  const serverProblems = EditorActor.useSelector((s) => s.context.problems);
  return useMemo(() => {
    const local = check(content, type);
    if (serverProblems.length === 0) return { content, problems: local };
    const seen = new Set(local.map((p) => `${p.rule}@${p.path}`));
    return {
      content,
      problems: [...local, ...serverProblems.filter((p) => !seen.has(`${p.rule}@${p.path}`))],
    };
  }, [content, type, serverProblems]);
}

export function useProblems(): Problem[] {
  return useChecked().problems;
}
