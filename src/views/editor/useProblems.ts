import { useMemo } from 'react';
import { checkContent } from '../../domain/content/rules';
import type { Problem } from '../../domain/content/problems';
import type { ProjectContent } from '../../domain/content/model';
import { EditorActor } from './editorActor';

// The rules run once per content version however many parts of the page list or draw the problems
// (the side panel, the canvas): content objects are immutable, so they key a WeakMap.
const checked = new WeakMap<ProjectContent, Map<number, Problem[]>>();

function check(content: ProjectContent, type: number): Problem[] {
  let byType = checked.get(content);
  if (!byType) checked.set(content, (byType = new Map()));
  let problems = byType.get(type);
  if (!problems) byType.set(type, (problems = checkContent(content, { projectType: type })));
  return problems;
}

/** Every problem of the content now (the rules run on each edit) and those the server reported. */
export function useProblems(): Problem[] {
  const content = EditorActor.useSelector((s) => s.context.doc.content);
  const type = EditorActor.useSelector((s) => s.context.project?.type ?? 1);
  const serverProblems = EditorActor.useSelector((s) => s.context.problems);
  return useMemo(() => {
    const local = check(content, type);
    if (serverProblems.length === 0) return local;
    const seen = new Set(local.map((p) => `${p.rule}@${p.path}`));
    return [...local, ...serverProblems.filter((p) => !seen.has(`${p.rule}@${p.path}`))];
  }, [content, type, serverProblems]);
}
