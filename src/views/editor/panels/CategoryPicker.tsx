import { Field, Label, Listbox, ListboxButton, ListboxOption, ListboxOptions } from '@headlessui/react';
import { useState } from 'react';
import { CATEGORY_RULES, withCategory } from '../../../domain/content/categories';
import { QUESTION_CATEGORIES, type Question, type QuestionCategory } from '../../../domain/content/model';
import type { TranslationFunctions } from '../../../i18n/i18n-types';
import { useI18nContext } from '../../../i18n/i18n-react';
import { CategoryIcon } from './categoryIcons';
import { useEdit } from './usePanel';

// The 13 categories with an icon and one line each. Each option also says what switching to it
// would drop from this question (answers, scale, …), so nothing disappears by surprise; the switch
// itself is one edit (question.setCategory), undone as one.

/** What changing the question to `category` would remove, in words; [] when everything fits. */
export function droppedBy(LL: TranslationFunctions, q: Question, category: QuestionCategory): string[] {
  if (category === q.category) return [];
  const next = withCategory(q, category);
  const D = LL.panels.dropped;
  const out: string[] = [];
  if (q.answers.length > next.answers.length) out.push(D.answers({ count: q.answers.length }));
  if (q.statements.length > next.statements.length) out.push(D.statements({ count: q.statements.length }));
  if (q.other !== null && next.other === null) out.push(D.other());
  if (q.answerLimit && !next.answerLimit) out.push(D.answerLimit());
  if (q.shuffle !== 'none' && next.shuffle === 'none') out.push(D.shuffle());
  if (q.scale && CATEGORY_RULES[q.category].scale !== CATEGORY_RULES[category].scale) out.push(D.scale());
  if (q.stars !== null && next.stars === null) out.push(D.stars());
  if (next.answers.length > 0) {
    if (q.answers.some((a, i) => a.screening !== null && next.answers[i].screening === null))
      out.push(D.screening());
    if (q.answers.some((a, i) => a.picture !== null && next.answers[i].picture === null))
      out.push(D.answerPictures());
    if (q.answers.some((a, i) => a.redirect !== null && next.answers[i].redirect === null))
      out.push(D.answerRedirects());
  }
  if (q.scaleLabels && !next.scaleLabels) out.push(D.scaleLabels());
  if (q.textLength && !next.textLength) out.push(D.textLength());
  if (q.region && !next.region) out.push(D.region());
  return out;
}

/**
 * One category in the open list. Its own component: what switching would drop is worked out when
 * the list is open (Headless UI renders the options only then), not on every render of the panel
 * (13 trial switches of the question per click and per edit).
 */
function CategoryOption({ question, category }: { question: Question; category: QuestionCategory }) {
  const { LL } = useI18nContext();
  const dropped = droppedBy(LL, question, category);
  return (
    <ListboxOption
      value={category}
      className="flex cursor-pointer gap-2 px-2 py-1.5 data-[focus]:bg-indigo-50 data-[selected]:bg-indigo-100"
    >
      <CategoryIcon category={category} className="mt-0.5 h-5 w-5 shrink-0 text-indigo-700" />
      <span className="flex flex-col">
        <span className="font-medium text-slate-800">{LL.common.categories[category]()}</span>
        <span className="text-xs text-slate-600">{LL.panels.categoryHints[category]()}</span>
        {dropped.length > 0 && (
          <span className="text-xs text-amber-800">
            {LL.panels.question.willDrop({ fields: dropped.join(', ') })}
          </span>
        )}
      </span>
    </ListboxOption>
  );
}

export function CategoryPicker({ question, disabled }: { question: Question; disabled: boolean }) {
  const { LL } = useI18nContext();
  const edit = useEdit();
  const [said, setSaid] = useState('');
  const choose = (category: QuestionCategory) => {
    if (category === question.category) return;
    const dropped = droppedBy(LL, question, category);
    edit({ type: 'question.setCategory', questionId: question.id, category });
    const name = LL.common.categories[category]();
    setSaid(
      dropped.length
        ? `${LL.panels.question.categoryChanged({ category: name })}. ${LL.panels.question.categoryDrops({ category: name, fields: dropped.join(', ') })}`
        : LL.panels.question.categoryChanged({ category: name }),
    );
  };
  return (
    <Field className="flex flex-col gap-1" disabled={disabled}>
      <Label className="text-xs font-medium text-slate-700">{LL.panels.question.category()}</Label>
      <Listbox value={question.category} onChange={choose} disabled={disabled}>
        <ListboxButton
          className="flex w-full items-center gap-2 rounded border border-slate-300 bg-white px-2 py-1.5 text-left text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 data-[disabled]:bg-slate-50"
          data-testid="category-button"
        >
          <CategoryIcon category={question.category} className="h-5 w-5 shrink-0 text-indigo-700" />
          <span className="flex-1">{LL.common.categories[question.category]()}</span>
          <span aria-hidden="true" className="text-slate-600">
            ▾
          </span>
        </ListboxButton>
        <ListboxOptions
          anchor="bottom start"
          className="z-40 max-h-[60vh] w-[var(--button-width)] min-w-72 overflow-auto rounded border border-slate-200 bg-white py-1 text-sm shadow-lg focus:outline-none"
        >
          {QUESTION_CATEGORIES.map((c) => (
            <CategoryOption key={c} question={question} category={c} />
          ))}
        </ListboxOptions>
      </Listbox>
      <p role="status" aria-live="polite" className="text-xs text-slate-700">
        {said}
      </p>
    </Field>
  );
}
