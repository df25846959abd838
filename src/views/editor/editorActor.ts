import { createActorContext } from '@xstate/react';
import type { SaveState } from '../../machines/editor/context';
import { editorMachine } from '../../machines/editor/machine';

// The editor machine for the /project page: one actor per opened project, read by the page's parts
// through useSelector.
export const EditorActor = createActorContext(editorMachine);

export function useSaveState(): SaveState {
  return EditorActor.useSelector((s) => (s.value as { doc: SaveState }).doc);
}
