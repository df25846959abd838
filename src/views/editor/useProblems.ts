import { useMemo } from 'react';
import { checkContent } from '../../domain/content/rules';
import type { Problem } from '../../domain/content/problems';
import { EditorActor } from './editorActor';

/** Every problem of the content now (the rules run on each edit) and those the server reported. */
export function useProblems(): Problem[] {
  const content = EditorActor.useSelector((s) => s.context.doc.content);
  const type = EditorActor.useSelector((s) => s.context.project?.type ?? 1);
  const serverProblems = EditorActor.useSelector((s) => s.context.problems);
  return useMemo(() => {
    const local = checkContent(content, { projectType: type });
    const seen = new Set(local.map((p) => `${p.rule}@${p.path}`));
    return [...local, ...serverProblems.filter((p) => !seen.has(`${p.rule}@${p.path}`))];
  }, [content, type, serverProblems]);
}
