import { useMemo } from 'react';
import { useLocation } from 'wouter';
import { useI18nContext } from '../../../i18n/i18n-react';
import { useCurrentUser } from '../../auth/AuthProvider';
import { EditorActor, useSaveState } from '../editorActor';
import { useEditorUi } from '../EditorUi';
import type { ToolEnv } from './registry';

/** Everything a command needs, read from the editor actor and the page's view state. */
export function useToolEnv(): ToolEnv {
  const { LL } = useI18nContext();
  const actor = EditorActor.useActorRef();
  const ui = useEditorUi();
  const [, navigate] = useLocation();
  const roleId = useCurrentUser()?.role.id;
  const state = useSaveState();
  const project = EditorActor.useSelector((s) => s.context.project);
  const content = EditorActor.useSelector((s) => s.context.doc.content);
  const canUndo = EditorActor.useSelector((s) => s.context.doc.undo.length > 0);
  const canRedo = EditorActor.useSelector((s) => s.context.doc.redo.length > 0);
  const dirty = EditorActor.useSelector(
    (s) => s.context.savedContent !== null && s.context.doc.content !== s.context.savedContent,
  );
  return useMemo(
    () => ({
      LL,
      actor,
      ui,
      navigate,
      facts: { state, project, content, canUndo, canRedo, dirty, selection: ui.selection, roleId },
    }),
    [LL, actor, ui, navigate, state, project, content, canUndo, canRedo, dirty, roleId],
  );
}
