import { useEffect, useId, useRef, useState } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import type { RespondentFilters } from '../../api/responses';
import { Button } from '../ui/Button';
import { SEARCH_DEBOUNCE_MS } from '../ui/SearchBox';
import { FILTERS, isFiltered, reversedRange, type FilterChoices, type FilterDef } from './filters';

// The list's filters, drawn from the FILTERS table: a select, a number, a date or a text box per
// entry. Choices apply at once; typed values (ages, the text) after a short pause, and only when
// the filter's own parser takes them. On a phone the bar folds behind a button that says how many
// filters are on.

const CONTROL =
  'w-full rounded border border-slate-300 bg-white px-2 py-2 text-sm outline-none focus:ring-2 focus:ring-indigo-500';

/** A typed value, sent once the typing pauses and the filter takes it. */
function Typed({
  def,
  id,
  value,
  onChange,
}: {
  def: Extract<FilterDef, { kind: 'number' | 'text' }>;
  id: string;
  value: string | undefined;
  onChange: (v: string | undefined) => void;
}) {
  const [text, setText] = useState(value ?? '');
  useEffect(() => setText(value ?? ''), [value]);
  // The page re-renders as rows arrive: the pause is timed from the last keystroke only.
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  }, [onChange]);
  const parsed = text.trim() === '' ? undefined : def.parse(text);
  const invalid = text.trim() !== '' && parsed === undefined;
  useEffect(() => {
    if (invalid || parsed === value) return;
    const t = setTimeout(() => latest.current(parsed), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [parsed, invalid, value]);
  return (
    <input
      id={id}
      className={CONTROL}
      type={def.kind === 'text' ? 'search' : 'text'}
      inputMode={def.kind === 'number' ? 'numeric' : undefined}
      placeholder={def.kind === 'number' ? `${def.min}–${def.max}` : undefined}
      maxLength={def.kind === 'text' ? def.maxLength : 2}
      aria-invalid={invalid || undefined}
      value={text}
      onChange={(e) => setText(e.target.value)}
    />
  );
}

function Control({
  def,
  value,
  choices,
  onChange,
}: {
  def: FilterDef;
  value: string | undefined;
  choices: FilterChoices;
  onChange: (v: string | undefined) => void;
}) {
  const { LL, locale } = useI18nContext();
  const id = useId();
  let control;
  if (def.kind === 'select') {
    const options = def.options(LL, choices);
    control = (
      <select
        id={id}
        className={CONTROL}
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
      >
        {def.any && <option value="">{def.any(LL)}</option>}
        {/* A value from the address that is not among the choices (yet) still shows, by its name
            where the value alone can give one (a language: "English", not "en"). */}
        {value !== undefined && !options.some((o) => o.id === value) && (
          <option value={value}>{def.nameOf?.(value, locale) ?? value}</option>
        )}
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    );
  } else if (def.kind === 'date') {
    control = (
      <input
        id={id}
        type="date"
        className={CONTROL}
        value={value ?? ''}
        onChange={(e) => onChange(def.parse(e.target.value))}
      />
    );
  } else control = <Typed def={def} id={id} value={value} onChange={onChange} />;
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${def.wide ? 'col-span-2' : ''}`} data-filter={def.key}>
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {def.label(LL)}
      </label>
      {control}
    </div>
  );
}

export function FilterBar({
  value,
  choices,
  onChange,
}: {
  value: RespondentFilters;
  choices: FilterChoices;
  onChange: (f: RespondentFilters) => void;
}) {
  const { LL } = useI18nContext();
  const F = LL.responses.filters;
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const on = Object.values(value).filter((v) => v !== undefined).length;
  // A range the wrong way round would list nobody (the server refuses it): say so, keep the list.
  const [reversed, setReversed] = useState<string | null>(null);
  const set = (key: string, v: string | undefined) => {
    const next = { ...value };
    if (v === undefined) delete next[key];
    else next[key] = v;
    const bad = reversedRange(next);
    setReversed(bad);
    if (!bad) onChange(next);
  };
  return (
    <section
      aria-labelledby={`${panelId}-title`}
      className="rounded-lg border border-slate-200 bg-white p-3 sm:p-4"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${panelId}-title`} className="text-base font-semibold text-slate-800">
          {on > 0 ? F.titleOn({ count: on }) : F.title()}
        </h2>
        <div className="ml-auto flex flex-wrap items-center justify-end gap-1">
          <Button
            variant="ghost"
            className="whitespace-nowrap px-2"
            disabled={!isFiltered(value)}
            onClick={() => {
              setReversed(null);
              onChange({});
            }}
          >
            {F.reset()}
          </Button>
          <Button
            variant="secondary"
            className="whitespace-nowrap px-3 lg:hidden"
            aria-label={open ? F.hideLabel() : F.showLabel()}
            aria-expanded={open}
            aria-controls={panelId}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? F.hide() : F.show()}
          </Button>
        </div>
      </div>
      <div
        id={panelId}
        className={`mt-3 grid-cols-2 gap-3 sm:grid-cols-4 lg:grid lg:grid-cols-6 ${open ? 'grid' : 'hidden'}`}
      >
        {FILTERS.filter((def) => !def.offered || def.offered(choices) || value[def.key] !== undefined).map(
          (def) => (
            <Control
              key={def.key}
              def={def}
              value={value[def.key]}
              choices={choices}
              onChange={(v) => set(def.key, v)}
            />
          ),
        )}
      </div>
      {reversed && (
        <p role="alert" className="mt-2 text-sm text-red-800">
          {reversed === 'age' ? F.ageReversed() : F.datesReversed()}
        </p>
      )}
    </section>
  );
}
