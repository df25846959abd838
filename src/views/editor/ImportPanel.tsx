import { useId, useState } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { importQuestions } from '../../domain/content/import';
import { Button } from '../ui/Button';
import { EditorActor } from './editorActor';

/** Import from list (docs/import-format.md): into the last block of the first questionnaire, as one undoable step. */
export function ImportPanel({ onDone }: { onDone: () => void }) {
  const { LL } = useI18nContext();
  const actor = EditorActor.useActorRef();
  const content = EditorActor.useSelector((s) => s.context.doc.content);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const submit = () => {
    const result = importQuestions(text);
    if (!result.ok) {
      setError(
        `${LL.editor.import.failed()} ${LL.editor.import.atLine({ line: result.line, reason: LL.editor.import.reasons[result.reason]() })}`,
      );
      return;
    }
    const qn = content.questionnaires[0] ?? null;
    const block = qn?.blocks[qn.blocks.length - 1] ?? null;
    actor.send({
      type: 'content.edit',
      command: {
        type: 'import',
        questionnaireId: qn?.id ?? null,
        blockId: block?.id ?? null,
        blocks: result.blocks,
      },
    });
    setText('');
    setError(null);
    onDone();
  };
  return (
    <section aria-labelledby={`${id}-title`} className="m-4 rounded border border-slate-200 p-4">
      <h2 id={`${id}-title`} className="font-semibold">
        {LL.editor.import.title()}
      </h2>
      <p className="text-sm text-slate-600">{LL.editor.import.hint()}</p>
      <label htmlFor={id} className="mt-2 block text-sm font-medium text-slate-700">
        {LL.editor.import.label()}
      </label>
      <textarea
        id={id}
        rows={8}
        className="mt-1 w-full rounded border border-slate-300 p-2 font-mono text-sm"
        value={text}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => setText(e.target.value)}
      />
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-800">
          {error}
        </p>
      )}
      <Button className="mt-2" onClick={submit}>
        {LL.editor.import.submit()}
      </Button>
    </section>
  );
}
