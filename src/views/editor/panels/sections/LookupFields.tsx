import { useEffect, useId, useState } from 'react';
import { findCities } from '../../../../api/lookups';
import type { City } from '../../../../domain/lookups';
import type { Question } from '../../../../domain/content/model';
import { useI18nContext } from '../../../../i18n/i18n-react';
import { Label } from '../controls';
import { useEdit } from '../usePanel';

// regionAuto and cityAuto take their answers from the cities lookup (GET /cities). The panel says
// so, lets the researcher try the search respondents will use, and for a city question narrows the
// choice to one region (found by typing a city of it).

function useCitySearch(search: string, region?: string) {
  const [state, setState] = useState<{ cities: City[]; error: string | null }>({ cities: [], error: null });
  useEffect(() => {
    const ctrl = new AbortController();
    const t = setTimeout(() => {
      findCities({ search, limit: 10, ...(region ? { region } : {}) }, ctrl.signal)
        .then((cities) => setState({ cities, error: null }))
        .catch((err: unknown) => {
          if ((err as Error)?.name !== 'AbortError') setState({ cities: [], error: (err as Error).message });
        });
    }, 250);
    return () => {
      clearTimeout(t);
      ctrl.abort();
    };
  }, [search, region]);
  return state;
}

export function LookupFields({
  question,
  disabled,
  kind,
}: {
  question: Question;
  disabled: boolean;
  kind: 'region' | 'city';
}) {
  const { LL } = useI18nContext();
  const edit = useEdit();
  const id = useId();
  const [search, setSearch] = useState('');
  const region = kind === 'city' ? (question.region ?? undefined) : undefined;
  const { cities, error } = useCitySearch(search, region);
  const T = LL.panels.lookup;
  const setRegion = (r: string | null) =>
    edit({ type: 'question.update', questionId: question.id, patch: { region: r } });
  const regions = [...new Map(cities.map((c) => [c.region.id, c.region])).values()];
  return (
    <div className="flex flex-col gap-2">
      <p className="text-xs text-slate-600">{kind === 'region' ? T.region() : T.city()}</p>
      {kind === 'city' && question.region && (
        <div className="flex items-center gap-2 text-sm">
          <span>
            {T.regionFilter()}: <strong>{question.region}</strong>
          </span>
          {!disabled && (
            <button
              type="button"
              className="rounded px-2 py-0.5 text-xs text-indigo-700 hover:bg-indigo-50"
              onClick={() => setRegion(null)}
            >
              {T.allRegions()}
            </button>
          )}
        </div>
      )}
      <Label htmlFor={id}>
        {kind === 'city' && !disabled && !question.region ? T.regionSearch() : T.try()}
      </Label>
      <input
        id={id}
        type="search"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        className="w-full rounded border border-slate-300 px-2 py-1 text-sm outline-none focus:ring-2 focus:ring-indigo-500"
      />
      {error ? (
        <p role="alert" className="text-xs text-red-700">
          {T.failed({ message: error })}
        </p>
      ) : (
        <>
          <p className="text-xs text-slate-600" aria-live="polite">
            {T.results({ count: kind === 'region' ? regions.length : cities.length })}
          </p>
          <ul className="max-h-40 overflow-auto text-sm text-slate-700">
            {kind === 'region'
              ? regions.map((r) => <li key={r.id}>{r.name}</li>)
              : cities.map((c) => (
                  <li key={c.id} className="flex items-center justify-between gap-2">
                    <span>
                      {c.name} <span className="text-xs text-slate-600">({c.region.name})</span>
                    </span>
                    {!disabled && !question.region && (
                      <button
                        type="button"
                        className="shrink-0 rounded px-2 py-0.5 text-xs text-indigo-700 hover:bg-indigo-50"
                        onClick={() => setRegion(c.region.id)}
                      >
                        {T.regionFilter()}: {c.region.name}
                      </button>
                    )}
                  </li>
                ))}
          </ul>
        </>
      )}
    </div>
  );
}
