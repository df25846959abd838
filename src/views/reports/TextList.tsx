import { useId, useState, type FormEvent } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import type { ReportTexts } from '../../domain/reports';
import { Button } from '../ui/Button';

// The written answers of one question (an open question's texts, or a choice question's "Other"
// texts): one page at a time with Previous / Next, and a search that the server runs (a
// case-insensitive substring in any script), so a list of thousands never comes to the page whole.

export interface TextQuery {
  page: number;
  search: string;
}

export function TextList({
  list,
  search,
  onQuery,
  title,
  name,
}: {
  list: ReportTexts;
  /** The search's accessible name, one per question (a page has several search landmarks). */
  name: string;
  /** The search the list was read with ('' for none). */
  search: string;
  onQuery: (q: TextQuery) => void;
  title?: string;
}) {
  const { LL } = useI18nContext();
  const P = LL.reports.page;
  const T = LL.reports.texts;
  const [term, setTerm] = useState(search);
  const inputId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onQuery({ page: 1, search: term.trim() });
  };
  const from = (list.page - 1) * list.pageSize + 1;
  const to = Math.min(list.total, from + list.items.length - 1);
  // Nothing written and nothing searched: no search box either.
  if (list.total === 0 && search === '')
    return title ? null : <p className="text-sm text-slate-600">{P.openEmpty()}</p>;
  return (
    <div className="flex flex-col gap-2" data-texts>
      {title && <h3 className="text-sm font-semibold text-slate-800">{title}</h3>}
      <form role="search" aria-label={name} onSubmit={submit} className="flex flex-wrap items-end gap-2">
        <label htmlFor={inputId} className="flex min-w-0 flex-1 flex-col gap-1 text-sm text-slate-700">
          {T.search()}
          <input
            id={inputId}
            type="search"
            value={term}
            maxLength={200}
            onChange={(e) => setTerm(e.target.value)}
            className="min-w-0 rounded-md border border-slate-300 px-3 py-2 text-slate-800"
          />
        </label>
        <Button type="submit" variant="secondary">
          {T.searchButton()}
        </Button>
        {search !== '' && (
          <Button
            type="button"
            variant="secondary"
            onClick={() => {
              setTerm('');
              onQuery({ page: 1, search: '' });
            }}
          >
            {T.clear()}
          </Button>
        )}
      </form>
      <p className="text-sm text-slate-600" aria-live="polite">
        {list.total === 0 ? T.noMatch({ term: search }) : P.openRange({ from, to, total: list.total })}
      </p>
      {list.items.length > 0 && (
        <ul className="flex flex-col gap-1 text-sm text-slate-800">
          {list.items.map((item, i) => (
            <li key={`${item.respondentId}-${i}`} className="rounded bg-slate-50 px-3 py-2 break-words">
              {item.text}
            </li>
          ))}
        </ul>
      )}
      {list.total > list.pageSize && (
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            disabled={list.page <= 1}
            onClick={() => onQuery({ page: list.page - 1, search })}
          >
            {P.openPrev()}
          </Button>
          <Button
            variant="secondary"
            disabled={to >= list.total}
            onClick={() => onQuery({ page: list.page + 1, search })}
          >
            {P.openNext()}
          </Button>
        </div>
      )}
    </div>
  );
}
