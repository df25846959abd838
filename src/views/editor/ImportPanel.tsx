import { useId, useState } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { importQuestions, planFill, type FillPlan, type ImportResult } from '../../domain/content/import';
import { notify } from '../ui/toast';
import { FillPreview } from './languages/FillPreview';
import { useLanguageName, useTextLanguage } from './languages/useTextLanguage';
import { Button } from '../ui/Button';
import { EditorActor } from './editorActor';

type Imported = Extract<ImportResult, { ok: true }>;

/**
 * Import from list (docs/import-format.md): into the last block of the first questionnaire, as one
 * undoable step. A paste the importer had to interpret (its notes) is shown as the questions it will
 * make, and added only when the user agrees. Or (issue 32) the paste fills one language's texts of a
 * questionnaire by position, after a preview of what goes where.
 */
export function ImportPanel({ onDone }: { onDone: () => void }) {
  const { LL } = useI18nContext();
  const actor = EditorActor.useActorRef();
  const content = EditorActor.useSelector((s) => s.context.doc.content);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<Imported | null>(null);
  const [mode, setMode] = useState<'add' | 'fill'>('add');
  const tl = useTextLanguage();
  const name = useLanguageName();
  const [language, setLanguage] = useState<string | null>(null);
  const fillLanguage = language && tl.languages.includes(language) ? language : tl.language;
  const [questionnaireId, setQuestionnaireId] = useState<string | null>(null);
  const target =
    content.questionnaires.find((q) => q.id === questionnaireId) ?? content.questionnaires[0] ?? null;
  const [fill, setFill] = useState<FillPlan | null>(null);
  const id = useId();
  const F = LL.translations.fill;

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
    if (mode === 'fill' && target) {
      setError(null);
      setFill(planFill(content, target.id, fillLanguage, result.blocks));
      return;
    }
    if (result.notes.length > 0) {
      setError(null);
      setPreview(result);
      return;
    }
    add(result);
  };

  const applyFill = (plan: FillPlan) => {
    actor.send({
      type: 'content.edit',
      command: {
        type: 'texts.set',
        language: plan.language,
        texts: plan.texts,
        label: LL.editor.import.title(),
      },
    });
    notify.success(F.done({ count: plan.texts.length }));
    setText('');
    setFill(null);
    onDone();
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
      {fill ? (
        <FillPreview
          plan={fill}
          languageName={name(fill.language)}
          onApply={() => applyFill(fill)}
          onBack={() => setFill(null)}
        />
      ) : preview ? (
        <ImportPreview result={preview} onAdd={() => add(preview)} onBack={() => setPreview(null)} />
      ) : (
        <>
          <p className="text-sm text-slate-600">{LL.editor.import.hint()}</p>
          {content.questionnaires.some((q) => q.blocks.some((b) => b.questions.length > 0)) && (
            <fieldset className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-slate-700">
              <legend className="sr-only">{F.mode()}</legend>
              <label className="flex items-center gap-1">
                <input
                  type="radio"
                  name={`${id}-mode`}
                  checked={mode === 'add'}
                  onChange={() => setMode('add')}
                />
                {F.addQuestions()}
              </label>
              <label className="flex items-center gap-1">
                <input
                  type="radio"
                  name={`${id}-mode`}
                  checked={mode === 'fill'}
                  onChange={() => setMode('fill')}
                  data-import-mode="fill"
                />
                {F.fillLanguage()}
              </label>
              {mode === 'fill' && (
                <label className="flex items-center gap-1">
                  {F.language()}
                  <select
                    value={fillLanguage}
                    onChange={(e) => setLanguage(e.target.value)}
                    className="rounded border border-slate-300 px-2 py-1"
                  >
                    {tl.languages.map((c) => (
                      <option key={c} value={c}>
                        {name(c)}
                      </option>
                    ))}
                  </select>
                </label>
              )}
              {mode === 'fill' && content.questionnaires.length > 1 && (
                <label className="flex items-center gap-1">
                  {F.questionnaire()}
                  <select
                    value={target?.id ?? ''}
                    onChange={(e) => setQuestionnaireId(e.target.value)}
                    className="rounded border border-slate-300 px-2 py-1"
                  >
                    {content.questionnaires.map((q, i) => (
                      <option key={q.id} value={q.id}>
                        {q.name || LL.panels.path.questionnaire({ n: i + 1 })}
                      </option>
                    ))}
                  </select>
                </label>
              )}
            </fieldset>
          )}
          {mode === 'fill' && <p className="mt-1 text-xs text-slate-600">{F.hint()}</p>}
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
