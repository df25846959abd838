import { useDeferredValue, useMemo } from 'react';
import { contentProblems } from '../../domain/content/checked';
import type { Problem } from '../../domain/content/problems';
import type { ProjectContent } from '../../domain/content/model';
import { EditorActor } from './editorActor';
import { usePainted } from '../ui/afterPaint';

// The rules run once per content version however many parts of the page list or draw the problems
// (the side panel, the canvas) and the save ask (src/domain/content/checked.ts).
//
// They run a frame after an edit, not in it: the content is read through useDeferredValue, so the
// edit itself (the text, the outline, the canvas) is committed first and the problem list, its
// count and the canvas's problem marks follow in a render of their own (about 6 ms of rules at
// 1 000 questions). Saving and sending check the content of the moment themselves (the machine).
//
// Not a child actor of the editor machine, though it is a life of its own in the sense of running
// after the edit: it is a value derived from the content, with no timer, no I/O and no state but
// the cache. Run by an actor, the rules would either take their milliseconds inside the edit's own
// task (the actor's snapshot and the content change together) or come a task later and render the
// canvas a second time per edit; here they run in the same deferred render that redraws the canvas.

export interface Checked {
  /** The content the problems were found in (their paths are indexes into it). */
  content: ProjectContent;
  problems: Problem[];
}

/** Every problem of the content (the rules run after each edit) and those the server reported. */
export function useChecked(): Checked {
  const current = EditorActor.useSelector((s) => s.context.doc.content);
  return useCheckedOf(useDeferredValue(current));
}

/**
 * useChecked for a part drawn with the editor's opening frame (the side panel): null until that
 * frame is on screen, the rules running in a task after it. At 1 000 questions they took 10–14 ms
 * of the task that paints the outline (issue 34, the reopen in a new tab); the tab shows its count
 * a few frames later. Not useDeferredValue's initial value: React renders that in the next task,
 * most often before the browser has drawn the frame.
 */
export function useCheckedAfterOpening(): Checked | null {
  const painted = usePainted();
  const current = EditorActor.useSelector((s) => s.context.doc.content);
  const content = useDeferredValue(current);
  return useCheckedOf(painted ? content : null);
}

function useCheckedOf(content: ProjectContent): Checked;
function useCheckedOf(content: ProjectContent | null): Checked | null;
function useCheckedOf(content: ProjectContent | null): Checked | null {
  const type = EditorActor.useSelector((s) => s.context.project?.type ?? 1);
  const serverProblems = EditorActor.useSelector((s) => s.context.problems);
  return useMemo(() => {
    if (content === null) return null;
    const local = contentProblems(content, type);
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
