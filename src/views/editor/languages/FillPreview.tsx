import { useId } from 'react';
import type { FillPlace, FillPlan } from '../../../domain/content/importInto';
import { useI18nContext } from '../../../i18n/i18n-react';
import { Button } from '../../ui/Button';
import { usePathLabel } from '../panels/usePanel';

// "What goes where" before a list fills a language's texts (issue 32, part 6): every text the list
// puts somewhere, what is there now and what it becomes, and where the list and the questionnaire
// do not match. Nothing changes until "Fill".

/** Rows drawn at most (the counts above say how many there are in all). */
const SHOWN = 300;

export function FillPreview({
  plan,
  languageName,
  onApply,
  onBack,
}: {
  plan: FillPlan;
  languageName: string;
  onApply: () => void;
  onBack: () => void;
}) {
  const { LL } = useI18nContext();
  const pathLabel = usePathLabel();
  const id = useId();
  const T = LL.translations.fill;
  const where = (p: FillPlace) => pathLabel(p);
  const notes = [
    plan.listQuestions > plan.questions &&
      T.moreInList({ list: plan.listQuestions, questions: plan.questions }),
    plan.listQuestions < plan.questions &&
      T.fewerInList({ list: plan.listQuestions, questions: plan.questions }),
    ...plan.mismatches.map((m) =>
      T.childCount({ where: where(m.place), list: m.list, questions: m.questionnaire }),
    ),
  ].filter((n) => n !== false);
  return (
    <div role="region" aria-labelledby={`${id}-title`} className="mt-2 flex flex-col gap-3" data-fill-preview>
      <h3 id={`${id}-title`} className="text-sm font-semibold text-slate-800">
        {T.preview()} · {languageName}
      </h3>
      {notes.length > 0 && (
        <ul className="list-disc pl-5 text-sm text-amber-900">
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      <p className="text-sm text-slate-700">
        {plan.texts.length > 0
          ? LL.translations.files.plan.changes({ count: plan.texts.length })
          : T.nothing()}
      </p>
      <div
        className="max-h-80 overflow-auto rounded border border-slate-200"
        tabIndex={0}
        role="group"
        aria-label={T.preview()}
      >
        <table className="w-full text-left text-sm">
          <thead className="sticky top-0 bg-slate-50 text-xs text-slate-700">
            <tr>
              <th scope="col" className="px-2 py-1">
                {T.where()}
              </th>
              <th scope="col" className="px-2 py-1">
                {T.now()}
              </th>
              <th scope="col" className="px-2 py-1">
                {T.next()}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {plan.rows.slice(0, SHOWN).map((r) => (
              <tr key={r.key} data-changed={r.now !== r.next || undefined} className="align-top">
                <td className="whitespace-nowrap px-2 py-1 text-xs text-slate-600">{where(r.place)}</td>
                <td className="px-2 py-1 text-slate-600">{r.now || T.blank()}</td>
                <td
                  className={`px-2 py-1 ${r.now !== r.next ? 'font-medium text-slate-900' : 'text-slate-600'}`}
                >
                  {r.next}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="flex gap-2">
        <Button onClick={onApply} disabled={plan.texts.length === 0}>
          {T.apply()}
        </Button>
        <Button variant="secondary" onClick={onBack}>
          {LL.importer.back()}
        </Button>
      </div>
    </div>
  );
}
