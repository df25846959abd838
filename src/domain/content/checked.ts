import type { ProjectContent } from './model';
import type { Problem } from './problems';
import { checkContent } from './rules';

// The rules run once per content version, however many readers ask: the editor's problem list and
// canvas (src/views/editor/useProblems.ts), and its save, which refuses content the rules block
// (src/machines/editor/save.ts). Content objects are immutable (immer), so they key a WeakMap and
// a version no one holds any more is forgotten with it.

const checked = new WeakMap<ProjectContent, Map<number, Problem[]>>();

/** Every problem of the content for a project of this type; the same array for the same content. */
export function contentProblems(content: ProjectContent, projectType: number): Problem[] {
  let byType = checked.get(content);
  if (!byType) checked.set(content, (byType = new Map()));
  let problems = byType.get(projectType);
  if (!problems) byType.set(projectType, (problems = checkContent(content, { projectType })));
  return problems;
}
