import { useI18nContext } from '../../i18n/i18n-react';
import { countQuestions } from '../../domain/content/model';
import { Button } from '../ui/Button';
import { EditorActor, useSaveState } from './editorActor';

/** A 412: both versions are kept and shown; nothing is overwritten until the user chooses. */
export function ConflictPanel() {
  const { LL } = useI18nContext();
  const state = useSaveState();
  const conflict = EditorActor.useSelector((s) => s.context.conflict);
  const mine = EditorActor.useSelector((s) => countQuestions(s.context.doc.content));
  const actor = EditorActor.useActorRef();
  if (state !== 'conflict' || !conflict) return null;
  return (
    <section
      role="alertdialog"
      aria-labelledby="conflict-title"
      aria-describedby="conflict-text"
      className="m-4 rounded border border-amber-300 bg-amber-50 p-4"
    >
      <h2 id="conflict-title" className="font-semibold text-amber-900">
        {LL.editor.conflict.title()}
      </h2>
      <p id="conflict-text" className="mt-1 text-sm text-amber-900">
        {LL.editor.conflict.text({ version: conflict.version })}
      </p>
      <ul className="mt-2 text-sm text-slate-700">
        <li>{LL.editor.conflict.mine({ count: mine })}</li>
        <li>{LL.editor.conflict.theirs({ count: countQuestions(conflict.content) })}</li>
      </ul>
      <div className="mt-3 flex gap-2">
        <Button onClick={() => actor.send({ type: 'conflict.keepMine' })}>
          {LL.editor.conflict.keepMine()}
        </Button>
        <Button variant="secondary" onClick={() => actor.send({ type: 'conflict.takeTheirs' })}>
          {LL.editor.conflict.takeTheirs()}
        </Button>
      </div>
    </section>
  );
}
