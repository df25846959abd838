import { useCallback } from 'react';
import type { Command } from '../../../domain/content/commands';
import { useI18nContext } from '../../../i18n/i18n-react';
import { EditorActor } from '../editorActor';

// What every panel needs: a way to edit (one command, one undoable step) and whether it may.

export function useEdit(): (command: Command) => void {
  const actor = EditorActor.useActorRef();
  return useCallback((command: Command) => actor.send({ type: 'content.edit', command }), [actor]);
}

/** The content can be edited now (the machine accepts edits in these states only). */
export function useCanEdit(): boolean {
  return EditorActor.useSelector((s) => {
    const doc = (s.value as { doc: string }).doc;
    return ['saved', 'editing', 'saving', 'offline', 'failed'].includes(doc);
  });
}

export function usePermissions(): { blockSettings: boolean; customParams: boolean } {
  const blockSettings = EditorActor.useSelector((s) => s.context.project?.permissions.blockSettings ?? false);
  const customParams = EditorActor.useSelector((s) => s.context.project?.permissions.customParams ?? false);
  return { blockSettings, customParams };
}

/** "Block 2 › Question 4 › Answer 3": the item a message is about, as the user numbers it. */
export function usePathLabel() {
  const { LL } = useI18nContext();
  return useCallback(
    (parts: {
      questionnaire?: number;
      block?: number;
      question?: number;
      answer?: number;
      statement?: number;
    }) => {
      const out: string[] = [];
      if (parts.questionnaire !== undefined)
        out.push(LL.panels.path.questionnaire({ n: parts.questionnaire }));
      if (parts.block !== undefined) out.push(LL.panels.path.block({ n: parts.block }));
      if (parts.question !== undefined) out.push(LL.panels.path.question({ n: parts.question }));
      if (parts.answer !== undefined) out.push(LL.panels.path.answer({ n: parts.answer }));
      if (parts.statement !== undefined) out.push(LL.panels.path.statement({ n: parts.statement }));
      return out.join(LL.panels.path.separator());
    },
    [LL],
  );
}
