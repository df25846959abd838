import { useEffect, useRef } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { countQuestions } from '../../domain/content/model';
import type { MergeConflict, Side } from '../../domain/content/merge';
import { Button } from '../ui/Button';
import { notify } from '../ui/toast';
import { EditorActor, useSaveState } from './editorActor';
import { fieldName, itemName, valueText } from './history/itemText';

// Merging with the server's version (issue #16). After a merge without conflicts: a notice of what
// came in (and a toast). With conflicts: only the items changed on both sides, side by side, with a
// choice per item; everything else is already merged. If the merge itself could not run (the
// base was out of reach), the whole-copy choice.

export function ConflictPanel() {
  const state = useSaveState();
  const pending = EditorActor.useSelector((s) => s.context.merge.pending);
  if (state === 'conflict') return pending ? <MergeConflicts /> : <WholeCopyConflict />;
  return <MergeNotice />;
}

function MergeConflicts() {
  const { LL } = useI18nContext();
  const actor = EditorActor.useActorRef();
  const pending = EditorActor.useSelector((s) => s.context.merge.pending)!;
  const choose = (key: string, side: Side) => actor.send({ type: 'conflict.choose', key, side });
  return (
    <section
      role="alertdialog"
      aria-labelledby="merge-conflict-title"
      aria-describedby="merge-conflict-text"
      className="m-4 max-h-[60vh] overflow-auto rounded border border-amber-300 bg-amber-50 p-4"
    >
      <h2 id="merge-conflict-title" className="font-semibold text-amber-900">
        {LL.versions.conflict.title()}
      </h2>
      <p id="merge-conflict-text" className="mt-1 text-sm text-amber-900">
        {LL.versions.conflict.text({ version: pending.theirs.version })}
      </p>
      <ul aria-label={LL.versions.conflict.items()} className="mt-3 space-y-3">
        {pending.result.conflicts.map((c) => (
          <ConflictItem
            key={c.key}
            conflict={c}
            side={pending.choices[c.key] ?? 'mine'}
            onChoose={(side) => choose(c.key, side)}
          />
        ))}
      </ul>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button onClick={() => actor.send({ type: 'conflict.resolve' })}>
          {LL.versions.conflict.apply()}
        </Button>
        <Button variant="secondary" onClick={() => actor.send({ type: 'conflict.chooseAll', side: 'mine' })}>
          {LL.versions.conflict.allMine()}
        </Button>
        <Button
          variant="secondary"
          onClick={() => actor.send({ type: 'conflict.chooseAll', side: 'theirs' })}
        >
          {LL.versions.conflict.allTheirs()}
        </Button>
      </div>
    </section>
  );
}

function ConflictItem({
  conflict: c,
  side,
  onChoose,
}: {
  conflict: MergeConflict;
  side: Side;
  onChoose: (side: Side) => void;
}) {
  const { LL, locale } = useI18nContext();
  const title = itemName(LL, c.kind, c.label);
  const why =
    c.reason === 'deletedByMine'
      ? LL.versions.conflict.deletedByMine()
      : c.reason === 'deletedByTheirs'
        ? LL.versions.conflict.deletedByTheirs()
        : LL.versions.conflict.changed();
  // Shown fields: those changed on both sides; for a deletion, what the other side changed.
  const fields =
    c.fields.length > 0
      ? c.fields
      : Object.keys((c.mine ?? c.theirs) as object).filter(
          (f) => JSON.stringify(c.base?.[f]) !== JSON.stringify((c.mine ?? c.theirs)?.[f]),
        );
  const column = (which: Side) => {
    const values = which === 'mine' ? c.mine : c.theirs;
    return (
      <label
        className={`flex flex-1 cursor-pointer gap-2 rounded border p-2 text-sm ${side === which ? 'border-sky-600 bg-white' : 'border-slate-300 bg-slate-50'}`}
      >
        <input
          type="radio"
          name={`conflict-${c.key}`}
          checked={side === which}
          onChange={() => onChoose(which)}
          className="mt-1"
        />
        <span className="min-w-0 flex-1">
          <span className="block font-medium text-slate-800">
            {which === 'mine' ? LL.versions.conflict.mine() : LL.versions.conflict.theirs()}
          </span>
          {values === null ? (
            <span className="block text-red-800">{LL.versions.deleted()}</span>
          ) : (
            <span className="block space-y-0.5 text-slate-700">
              {fields.map((f) => (
                <span key={f} className="block break-words">
                  <span className="text-slate-600">{fieldName(LL, f, locale)}: </span>
                  {valueText(LL, f, values[f])}
                </span>
              ))}
            </span>
          )}
        </span>
      </label>
    );
  };
  return (
    <li data-conflict={c.key}>
      <fieldset className="rounded border border-amber-200 bg-amber-100/40 p-2">
        <legend className="px-1 text-sm font-semibold text-slate-800">{title}</legend>
        <p className="mb-2 text-xs text-amber-900">
          {why}
          {c.inside.length > 0 && ` (${LL.versions.conflict.inside({ count: c.inside.length })})`}
        </p>
        <div className="flex flex-col gap-2 sm:flex-row">
          {column('mine')}
          {column('theirs')}
        </div>
      </fieldset>
    </li>
  );
}

/** After a merge without conflicts: what came in from the other side, until closed. */
function MergeNotice() {
  const { LL } = useI18nContext();
  const actor = EditorActor.useActorRef();
  const notice = EditorActor.useSelector((s) => s.context.merge.notice);
  const shown = useRef<typeof notice>(null);
  useEffect(() => {
    if (!notice || shown.current === notice) return;
    shown.current = notice;
    notify.success(LL.versions.merge.toast({ version: notice.version, count: notice.incoming.length }));
  }, [notice, LL]);
  if (!notice) return null;
  return (
    <section
      role="status"
      aria-labelledby="merge-notice-title"
      className="m-4 rounded border border-sky-200 bg-sky-50 p-3 text-sm text-slate-800"
    >
      <div className="flex items-start justify-between gap-2">
        <h2 id="merge-notice-title" className="font-semibold">
          {LL.versions.merge.title()}
        </h2>
        <Button variant="secondary" onClick={() => actor.send({ type: 'merge.dismiss' })}>
          {LL.versions.merge.dismiss()}
        </Button>
      </div>
      <p className="mt-1">
        {notice.incoming.length > 0
          ? LL.versions.merge.text({ version: notice.version })
          : LL.versions.merge.nothing()}
      </p>
      {notice.incoming.length > 0 && (
        <ul className="mt-1 list-disc pl-5 text-slate-700">
          {notice.incoming.slice(0, 20).map((c, i) => (
            <li key={i} data-code={c.code}>
              {c.label ? `${LL.editor.changeLog[c.code]()}: ${c.label}` : LL.editor.changeLog[c.code]()}
            </li>
          ))}
          {notice.incoming.length > 20 && (
            <li>{LL.versions.history.more({ count: notice.incoming.length - 20 })}</li>
          )}
        </ul>
      )}
      {notice.broken.length > 0 && (
        <p role="alert" className="mt-2 text-red-800">
          {LL.versions.merge.broken({ count: notice.broken.length })}
        </p>
      )}
    </section>
  );
}

/** The merge could not run (its base was out of reach): both whole copies are kept, the user picks one. */
function WholeCopyConflict() {
  const { LL } = useI18nContext();
  const conflict = EditorActor.useSelector((s) => s.context.conflict);
  const mine = EditorActor.useSelector((s) => countQuestions(s.context.doc.content));
  const actor = EditorActor.useActorRef();
  if (!conflict) return null;
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
