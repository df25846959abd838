import { useEffect, useId, useRef, useState } from 'react';
import type { Page, Reply } from '../../domain/flow';
import { useTexts } from './Texts';

// Region and city: a combobox that searches the cities lookup as the respondent types. The reply is
// the place's stable id; its name is kept beside it only to show it again.

export interface PlaceOption {
  id: string;
  name: string;
  detail: string;
}
export type FindPlaces = (
  kind: 'city' | 'region',
  search: string,
  signal: AbortSignal,
  /** Cities of this region only (a city question's region). */
  region?: string,
) => Promise<PlaceOption[]>;

interface Props {
  kind: 'city' | 'region';
  /** Offer only this region's cities. */
  region?: string | null;
  value: Reply & { label?: string };
  onChange: (r: Reply & { label?: string }) => void;
  findPlaces: FindPlaces;
  describedBy?: string;
  /** As a field of a form (the profile step): full width, the form's label and box size. */
  field?: boolean;
  /** The form cannot be sent without it (a target project's profile step). */
  required?: boolean;
}

/** The place of a region or city question. */
export function Place({ page, ...rest }: Omit<Props, 'kind' | 'region'> & { page: Page }) {
  const q = page.question;
  return (
    <PlaceInput
      kind={q.category === 'regionAuto' ? 'region' : 'city'}
      region={q.category === 'cityAuto' ? q.region : null}
      {...rest}
    />
  );
}

export function PlaceInput({
  kind,
  region,
  value,
  onChange,
  findPlaces,
  describedBy,
  field,
  required,
}: Props) {
  const { s } = useTexts();
  const [query, setQuery] = useState(value.label ?? '');
  const [options, setOptions] = useState<PlaceOption[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [searched, setSearched] = useState(false);
  const listId = useId();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    if (!open) return;
    const ctrl = new AbortController();
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      findPlaces(kind, query, ctrl.signal, region ?? undefined)
        .then((list) => {
          setOptions(list);
          setSearched(true);
          setActive(list.length ? 0 : -1);
        })
        .catch(() => {});
    }, 200);
    return () => ctrl.abort();
  }, [query, open, kind, region, findPlaces]);

  const choose = (o: PlaceOption) => {
    onChange({ text: o.id, label: o.name });
    setQuery(o.name);
    setOpen(false);
  };
  return (
    <div className={field ? 'relative' : 'relative max-w-md'}>
      <label
        htmlFor={`${listId}-input`}
        className={field ? 'mb-1 block' : 'mb-1 block text-sm text-slate-700'}
      >
        {kind === 'city' ? s.city : s.region}
      </label>
      <input
        id={`${listId}-input`}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
        aria-describedby={describedBy}
        required={required}
        placeholder={s.searchPlace}
        className={`w-full rounded-md border border-slate-400 px-3 py-2 text-base ${field ? 'min-h-11' : ''}`}
        value={query}
        // A question's only field offers the largest places at once; a form's field waits for typing.
        onFocus={() => !field && setOpen(true)}
        // The list is part of the page (it pushes Next down rather than covering it) and stays open
        // until a place is picked or Escape: closing it on blur would move Next under a click.
        onChange={(e) => {
          setQuery(e.target.value);
          setOpen(true);
          // Typed but not picked: no place yet; the text is kept so the form can say "pick one".
          onChange({ text: null, label: e.target.value });
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
            setActive((i) => Math.min(options.length - 1, i + 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((i) => Math.max(0, i - 1));
          } else if (e.key === 'Enter' && open && active >= 0 && options[active]) {
            e.preventDefault();
            choose(options[active]);
          } else if (e.key === 'Escape') setOpen(false);
        }}
      />
      {open && (
        <ul
          id={listId}
          role="listbox"
          aria-label={kind === 'city' ? s.city : s.region}
          className="mt-1 max-h-64 w-full overflow-auto rounded-md border border-slate-300 bg-white shadow-sm"
        >
          {options.map((o, i) => (
            <li
              key={o.id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={`cursor-pointer px-3 py-2 ${i === active ? 'bg-indigo-100' : ''}`}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(o);
              }}
            >
              {o.name}
              {o.detail && <span className="text-sm text-slate-700">, {o.detail}</span>}
            </li>
          ))}
          {searched && options.length === 0 && (
            <li className="px-3 py-2 text-slate-600">{region ? s.noPlacesInRegion : s.noPlaces}</li>
          )}
        </ul>
      )}
    </div>
  );
}
