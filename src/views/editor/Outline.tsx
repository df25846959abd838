import { useState } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import type { Question } from '../../domain/content/model';
import { Button } from '../ui/Button';
import { EditorActor } from './editorActor';

// The questionnaire as a plain outline (questionnaires → blocks → questions), the stand-in for the
// graph canvas that a later issue brings. Question texts are editable; a change is one edit when
// the field is left, not one per keystroke, so undo takes back a whole text.

function QuestionRow({ q, n, readOnly }: { q: Question; n: number; readOnly: boolean }) {
  const { LL } = useI18nContext();
  const actor = EditorActor.useActorRef();
  const [text, setText] = useState(q.text);
  const [seen, setSeen] = useState(q.text);
  // Undo, redo or a server copy changed the text under us: show it.
  if (q.text !== seen) {
    setSeen(q.text);
    setText(q.text);
  }
  const commit = () => {
    if (text !== q.text)
      actor.send({
        type: 'content.edit',
        command: { type: 'question.update', questionId: q.id, patch: { text } },
      });
  };
  return (
    <li className="flex items-center gap-2 py-1" data-question-id={q.id}>
      <input
        aria-label={LL.editor.page.questionText({ n })}
        className="min-w-0 flex-1 rounded border border-slate-300 px-2 py-1 text-sm disabled:bg-slate-50"
        value={text}
        placeholder={LL.editor.page.untitled()}
        disabled={readOnly}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
        }}
      />
      <span className="text-xs text-slate-500">
        {LL.editor.categories[q.category]()}
        {q.answers.length > 0 && ` · ${LL.editor.page.answers({ count: q.answers.length })}`}
      </span>
      {!readOnly && (
        <Button
          variant="ghost"
          aria-label={`${LL.editor.page.deleteQuestion()} ${n}`}
          onClick={() =>
            actor.send({ type: 'content.edit', command: { type: 'question.delete', questionId: q.id } })
          }
        >
          ×
        </Button>
      )}
    </li>
  );
}

export function Outline({ readOnly }: { readOnly: boolean }) {
  const { LL } = useI18nContext();
  const content = EditorActor.useSelector((s) => s.context.doc.content);
  if (content.questionnaires.length === 0)
    return <p className="p-4 text-slate-500">{LL.editor.page.empty()}</p>;
  let n = 0;
  return (
    <nav aria-label={LL.editor.page.outline()} className="p-4">
      {content.questionnaires.map((qn, i) => (
        <section key={qn.id} aria-label={LL.editor.page.questionnaire({ n: i + 1 })} className="mb-4">
          <h2 className="font-semibold text-slate-800">{LL.editor.page.questionnaire({ n: i + 1 })}</h2>
          {qn.blocks.map((b, j) => (
            <section key={b.id} className="ml-4 mt-2 border-l border-slate-200 pl-3">
              <h3 className="text-sm font-medium text-slate-700">
                {b.name
                  ? LL.editor.page.blockNamed({ n: j + 1, name: b.name })
                  : LL.editor.page.block({ n: j + 1 })}
              </h3>
              <ol>
                {b.questions.map((q) => (
                  <QuestionRow key={q.id} q={q} n={++n} readOnly={readOnly} />
                ))}
              </ol>
            </section>
          ))}
        </section>
      ))}
    </nav>
  );
}
