import { useId, useState } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { importQuestions, type ImportResult } from '../../domain/content/import';
import { Button } from '../ui/Button';
import { EditorActor } from './editorActor';

type Imported = Extract<ImportResult, { ok: true }>;

/**
 * Import from list (docs/import-format.md): into the last block of the first questionnaire, as one
 * undoable step. A paste the importer had to interpret (its notes) is shown as the questions it will
 * make, and added only when the user agrees.
 */
export function ImportPanel({ onDone }: { onDone: () => void }) {
  const { LL } = useI18nContext();
  const actor = EditorActor.useActorRef();
  const content = EditorActor.useSelector((s) => s.context.doc.content);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<Imported | null>(null);
  const id = useId();

  const add = (result: Imported) => {
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
    setPreview(null);
    onDone();
  };

  const submit = () => {
    const result = importQuestions(text);
    if (!result.ok) {
      setError(
        `${LL.editor.import.failed()} ${LL.editor.import.atLine({ line: result.line, reason: LL.editor.import.reasons[result.reason]() })}`,
      );
      return;
    }
    if (result.notes.length > 0) {
      setError(null);
      setPreview(result);
      return;
    }
    add(result);
  };

  return (
    <section
      data-import-panel
      aria-labelledby={`${id}-title`}
      className="m-4 rounded border border-slate-200 p-4"
    >
      <h2 id={`${id}-title`} className="font-semibold">
        {LL.editor.import.title()}
      </h2>
      {preview ? (
        <ImportPreview result={preview} onAdd={() => add(preview)} onBack={() => setPreview(null)} />
      ) : (
        <>
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
        </>
      )}
    </section>
  );
}

/** The questions an ambiguous paste will make, with how it was read; nothing is added until "Add". */
function ImportPreview({
  result,
  onAdd,
  onBack,
}: {
  result: Imported;
  onAdd: () => void;
  onBack: () => void;
}) {
  const { LL } = useI18nContext();
  const id = useId();
  return (
    <div role="region" aria-labelledby={`${id}-title`} className="mt-2 flex flex-col gap-3">
      <h3 id={`${id}-title`} className="text-sm font-semibold text-slate-800">
        {LL.importer.previewTitle()}
      </h3>
      <ul className="list-disc pl-5 text-sm text-slate-700">
        {result.notes.map((n) => (
          <li key={n}>{LL.importer.notes[n]()}</li>
        ))}
      </ul>
      <p className="text-sm text-slate-700">{LL.importer.previewIntro({ count: result.count })}</p>
      <div
        aria-label={LL.importer.list()}
        role="group"
        className="max-h-80 overflow-auto rounded border border-slate-200"
        tabIndex={0}
      >
        {result.blocks.map((b, bi) => (
          <div key={bi}>
            {b.name && (
              <p className="bg-slate-50 px-3 py-1 text-xs font-semibold text-slate-700">
                {LL.importer.block({ name: b.name })}
              </p>
            )}
            <ol className="divide-y divide-slate-100">
              {b.questions.map((q) => (
                <li key={q.id} className="px-3 py-2 text-sm" data-import-preview-question>
                  <p className="text-slate-800">
                    <span className="font-medium">{q.text}</span>{' '}
                    <span className="text-slate-700">· {LL.common.categories[q.category]()}</span>
                  </p>
                  {q.statements.length > 0 && (
                    <p className="text-slate-700">
                      {LL.importer.rows({ list: q.statements.map((s) => s.text).join(' · ') })}
                    </p>
                  )}
                  {q.answers.length > 0 && (
                    <p className="text-slate-700">
                      {LL.importer.answers({ list: q.answers.map((a) => a.text).join(' · ') })}
                    </p>
                  )}
                </li>
              ))}
            </ol>
          </div>
        ))}
      </div>
      <div className="flex gap-2">
        <Button onClick={onAdd}>{LL.importer.add()}</Button>
        <Button variant="secondary" onClick={onBack}>
          {LL.importer.back()}
        </Button>
      </div>
    </div>
  );
}
