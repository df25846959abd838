import type { EditorSelection } from '../selection';

// The fields of the selected item (question, block, questionnaire). Placeholder until the panels
// land: the editor's frame mounts it in the side panel. It reads the content from EditorActor and
// edits through actor.send({ type: 'content.edit', command }).
export interface ItemPanelProps {
  selection: EditorSelection;
  onSelect: (selection: EditorSelection) => void;
}

export function ItemPanel(_props: ItemPanelProps) {
  return null;
}
