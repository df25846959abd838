import { useId } from 'react';
import { scaleOf, type Page, type Reply } from '../../domain/flow';
import { useTexts } from './Texts';

// Numbers: fromTo (a number in the range), slider, nps (0–10) and star rating.

interface Props {
  page: Page;
  value: Reply;
  onChange: (r: Reply) => void;
  describedBy?: string;
}

const box =
  'flex min-h-11 min-w-11 cursor-pointer items-center justify-center rounded-md border border-slate-300 bg-white px-2 has-[:checked]:border-indigo-600 has-[:checked]:bg-indigo-700 has-[:checked]:text-white has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-600';

export function Scale({ page, value, onChange, describedBy }: Props) {
  const { s } = useTexts();
  const q = page.question;
  const sc = scaleOf(q);
  const v = value.value ?? null;
  const name = `q-${q.id}`;
  const ends = useId();

  if (q.category === 'nps' || q.category === 'starRating') {
    const values = Array.from({ length: sc.max - sc.min + 1 }, (_, i) => sc.min + i);
    const stars = q.category === 'starRating';
    // The words under both ends (the question's scaleLabels, else the usual ones) describe the group
    // and the end radio they belong to, so a screen reader says them where a sighted user reads them.
    const low = q.scaleLabels?.min.trim() || s.npsLow;
    const high = q.scaleLabels?.max.trim() || s.npsHigh;
    const lowId = `${ends}-low`;
    const highId = `${ends}-high`;
    const groupDescribed = stars ? describedBy : [lowId, highId, describedBy].filter(Boolean).join(' ');
    return (
      <fieldset aria-describedby={groupDescribed}>
        <legend className="sr-only">{q.text}</legend>
        <div className={stars ? 'flex flex-wrap gap-1' : 'grid grid-cols-6 gap-1 sm:grid-cols-11'}>
          {values.map((n) => (
            <label
              key={n}
              className={
                stars
                  ? 'flex min-h-11 min-w-11 cursor-pointer items-center justify-center rounded-md text-3xl has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600'
                  : box
              }
            >
              <input
                type="radio"
                name={name}
                className="sr-only"
                aria-label={stars ? s.stars(n, sc.max) : undefined}
                aria-describedby={
                  stars ? undefined : n === sc.min ? lowId : n === sc.max ? highId : undefined
                }
                checked={v === n}
                onChange={() => onChange({ value: n })}
              />
              {stars ? (
                <span
                  aria-hidden="true"
                  className={v !== null && n <= v ? 'text-amber-500' : 'text-slate-500'}
                >
                  {v !== null && n <= v ? '★' : '☆'}
                </span>
              ) : (
                <span>{n}</span>
              )}
            </label>
          ))}
        </div>
        {!stars && (
          // Two rows of buttons on a phone: the numbers say which end each word belongs to there.
          <div className="mt-2 flex justify-between gap-4 text-sm text-slate-700">
            <span id={lowId} className="max-w-[45%] break-words" data-testid="scale-low">
              <span className="sm:hidden">{sc.min} — </span>
              {low}
            </span>
            <span id={highId} className="max-w-[45%] text-right break-words" data-testid="scale-high">
              <span className="sm:hidden">{sc.max} — </span>
              {high}
            </span>
          </div>
        )}
      </fieldset>
    );
  }

  if (q.category === 'slider') {
    const mid = sc.min + Math.round((sc.max - sc.min) / sc.step / 2) * sc.step;
    return (
      <div className="flex flex-col gap-2">
        <label htmlFor={name} className="text-sm text-slate-700">
          {s.value}: <output className="font-semibold text-slate-900">{v ?? '—'}</output>
        </label>
        <input
          id={name}
          type="range"
          min={sc.min}
          max={sc.max}
          step={sc.step}
          value={v ?? mid}
          aria-describedby={describedBy}
          className="h-11 w-full accent-indigo-600"
          onChange={(e) => onChange({ value: Number(e.target.value) })}
          onClick={(e) => onChange({ value: Number((e.target as HTMLInputElement).value) })}
        />
        <div className="flex justify-between text-sm text-slate-600" aria-hidden="true">
          <span>{sc.min}</span>
          <span>{sc.max}</span>
        </div>
      </div>
    );
  }

  // fromTo: a whole number in the range.
  return (
    <label className="flex max-w-xs flex-col gap-1">
      <span className="text-sm text-slate-700">
        {s.value} ({s.from.toLowerCase()} {sc.min} {s.to.toLowerCase()} {sc.max})
      </span>
      <input
        type="number"
        inputMode="numeric"
        min={sc.min}
        max={sc.max}
        step={1}
        aria-describedby={describedBy}
        className="rounded-md border border-slate-400 px-3 py-2 text-base"
        value={v ?? ''}
        onChange={(e) => onChange({ value: e.target.value === '' ? null : Number(e.target.value) })}
      />
    </label>
  );
}
