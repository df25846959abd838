import { useMemo } from 'react';
import { useI18nContext } from '../../../i18n/i18n-react';
import { EditorActor } from '../editorActor';
import { useCanEdit, useEdit } from './usePanel';

// The questionnaire panel: the model gives a questionnaire no name, so its number and its counts.
export function QuestionnairePanel({ id }: { id: string }) {
  const { LL } = useI18nContext();
  const edit = useEdit();
  const canEdit = useCanEdit();
  const content = EditorActor.useSelector((s) => s.context.doc.content);
  const i = content.questionnaires.findIndex((q) => q.id === id);
  const counts = useMemo(() => {
    const qn = content.questionnaires[i];
    if (!qn) return null;
    let questions = 0;
    let answers = 0;
    for (const b of qn.blocks)
      for (const q of b.questions) {
        questions++;
        answers += q.answers.length;
      }
    return { blocks: qn.blocks.length, questions, answers };
  }, [content, i]);
  if (i < 0 || !counts) return <p className="text-sm text-slate-600">{LL.panels.missing()}</p>;
  return (
    <div className="flex flex-col gap-3" data-panel="questionnaire">
      <header>
        <h2 className="text-base font-semibold text-slate-800">
          {LL.panels.path.questionnaire({ n: i + 1 })}
        </h2>
        <p className="text-sm text-slate-700">{LL.panels.questionnaire.counts(counts)}</p>
      </header>
      {canEdit && (
        <button
          type="button"
          className="self-start rounded border border-dashed border-indigo-400 px-3 py-1 text-sm text-indigo-700 hover:bg-indigo-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          onClick={() => edit({ type: 'block.add', questionnaireId: id })}
        >
          + {LL.panels.questionnaire.addBlock()}
        </button>
      )}
    </div>
  );
}
