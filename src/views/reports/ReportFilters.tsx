import { useEffect, useId, useState, type ReactNode } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { AGE_MAX, AGE_MIN, EDUCATION_LEVELS, GENDERS } from '../../domain/lookups';
import type { ReportFilters as Filters } from '../../domain/reports';
import { languageName } from '../../domain/content/languages';
import { Button } from '../ui/Button';

// The report's filters (spec section 2: gender, age, city, education) and the portrait selection.
// Choices apply at once; the age fields apply after a short pause in typing, and only a valid range.

const CONTROL =
  'w-full rounded border border-slate-300 bg-white px-2 py-2 text-sm outline-none focus:ring-2 focus:ring-indigo-500';

function Labelled({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      {children(id)}
    </div>
  );
}

const validAge = (s: string) => s === '' || (/^\d{1,2}$/.test(s) && +s >= AGE_MIN && +s <= AGE_MAX);

export function ReportFilters({
  value,
  onChange,
  cities,
  portraits,
  languages = [],
}: {
  value: Filters;
  onChange: (f: Filters) => void;
  cities: { id: string; name: string }[];
  portraits: { id: string; name: string }[];
  /** The questionnaire's languages (issue 32): a filter of their own when there are several. */
  languages?: string[];
}) {
  const { LL, locale } = useI18nContext();
  const F = LL.reports.filters;
  const [ageMin, setAgeMin] = useState(value.ageMin?.toString() ?? '');
  const [ageMax, setAgeMax] = useState(value.ageMax?.toString() ?? '');
  const set = (patch: Filters) => onChange({ ...value, ...patch });

  useEffect(() => {
    setAgeMin(value.ageMin?.toString() ?? '');
    setAgeMax(value.ageMax?.toString() ?? '');
  }, [value.ageMin, value.ageMax]);

  const ageError =
    !validAge(ageMin) || !validAge(ageMax) || (ageMin !== '' && ageMax !== '' && +ageMin > +ageMax);
  useEffect(() => {
    if (ageError) return;
    const min = ageMin === '' ? undefined : +ageMin;
    const max = ageMax === '' ? undefined : +ageMax;
    if (min === value.ageMin && max === value.ageMax) return;
    const timer = setTimeout(() => onChange({ ...value, ageMin: min, ageMax: max }), 500);
    return () => clearTimeout(timer);
  }, [ageMin, ageMax, ageError, value, onChange]);

  const select =
    (key: keyof Filters, options: { id: string; name: string }[], anyText: string) => (id: string) => (
      <select
        id={id}
        className={CONTROL}
        value={(value[key] as string | undefined) ?? ''}
        onChange={(e) => set({ [key]: e.target.value === '' ? undefined : e.target.value })}
      >
        <option value="">{anyText}</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    );
  const empty = Object.values(value).every((v) => v === undefined);

  return (
    <section aria-labelledby="report-filters" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="report-filters" className="mb-3 text-base font-semibold text-slate-800">
        {F.title()}
      </h2>
      <div
        className={`grid grid-cols-2 gap-3 sm:grid-cols-3 ${languages.length > 1 ? 'lg:grid-cols-4 xl:grid-cols-8' : 'lg:grid-cols-7'}`}
      >
        <Labelled label={F.portrait()}>
          {select(
            'portrait',
            portraits.map((p) => ({ id: p.id, name: p.name || p.id })),
            F.anyPortrait(),
          )}
        </Labelled>
        <Labelled label={F.gender()}>
          {select(
            'gender',
            GENDERS.map((g) => ({ id: g, name: LL.projects.gender[g]() })),
            F.any(),
          )}
        </Labelled>
        <Labelled label={F.ageMin()}>
          {(id) => (
            <input
              id={id}
              className={CONTROL}
              inputMode="numeric"
              value={ageMin}
              aria-invalid={ageError || undefined}
              placeholder={String(AGE_MIN)}
              onChange={(e) => setAgeMin(e.target.value.trim())}
            />
          )}
        </Labelled>
        <Labelled label={F.ageMax()}>
          {(id) => (
            <input
              id={id}
              className={CONTROL}
              inputMode="numeric"
              value={ageMax}
              aria-invalid={ageError || undefined}
              placeholder={String(AGE_MAX)}
              onChange={(e) => setAgeMax(e.target.value.trim())}
            />
          )}
        </Labelled>
        <Labelled label={F.city()}>{select('city', cities, F.any())}</Labelled>
        <Labelled label={F.education()}>
          {select(
            'education',
            EDUCATION_LEVELS.map((e) => ({ id: e, name: LL.projects.education[e]() })),
            F.any(),
          )}
        </Labelled>
        {languages.length > 1 && (
          <Labelled label={F.language()}>
            {select(
              'language',
              languages.map((code) => ({ id: code, name: languageName(code, locale) })),
              F.anyLanguage(),
            )}
          </Labelled>
        )}
        <div className="flex items-end">
          <Button variant="secondary" className="w-full" disabled={empty} onClick={() => onChange({})}>
            {F.reset()}
          </Button>
        </div>
      </div>
      {ageError && (
        <p role="alert" className="mt-2 text-sm text-red-800">
          {F.ageInvalid({ min: AGE_MIN, max: AGE_MAX })}
        </p>
      )}
    </section>
  );
}
