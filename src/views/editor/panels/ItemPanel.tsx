import { useMemo } from 'react';
import { useI18nContext } from '../../../i18n/i18n-react';
import type { EditorSelection } from '../selection';
import { BlockPanel } from './BlockPanel';
import { PanelContext } from './PanelContext';
import { QuestionnairePanel } from './QuestionnairePanel';
import { QuestionPanel } from './QuestionPanel';

// The fields of the selected item (question, block, questionnaire): the editor's frame mounts it in
// the side panel. It reads the content from EditorActor and edits through
// actor.send({ type: 'content.edit', command }).
export interface ItemPanelProps {
  selection: EditorSelection;
  onSelect: (selection: EditorSelection) => void;
}

export function ItemPanel({ selection, onSelect }: ItemPanelProps) {
  const { LL } = useI18nContext();
  const ctx = useMemo(() => ({ onSelect }), [onSelect]);
  if (!selection) return <p className="text-sm text-slate-600">{LL.panels.none()}</p>;
  return (
    <PanelContext.Provider value={ctx}>
      {/* key: a new item starts with fresh local drafts */}
      {selection.kind === 'question' ? (
        <QuestionPanel key={selection.id} id={selection.id} />
      ) : selection.kind === 'block' ? (
        <BlockPanel key={selection.id} id={selection.id} />
      ) : (
        <QuestionnairePanel key={selection.id} id={selection.id} />
      )}
    </PanelContext.Provider>
  );
}
