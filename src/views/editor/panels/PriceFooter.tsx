import { useEffect, useMemo, useState } from 'react';
import { getProjectPrice } from '../../../api/price';
import { countsOf, type ProjectPrice } from '../../../domain/projectPrice';
import { useI18nContext } from '../../../i18n/i18n-react';
import { formatMoney } from '../../pricing/formErrors';
import { EditorActor } from '../editorActor';
import { PictureQueueStatus } from './PictureQueueStatus';

// The live price estimate under the canvas: what the survey costs per completed respondent and in
// total for the portraits' respondents. The counts come from the content on screen; the price from
// GET /project/price (the settings stay on the server), asked again a moment after the counts change.

const DEBOUNCE_MS = 400;

export function PriceFooter() {
  const { LL, locale } = useI18nContext();
  const pid = EditorActor.useSelector((s) => s.context.pid);
  const type = EditorActor.useSelector((s) => s.context.project?.type ?? 1);
  const content = EditorActor.useSelector((s) => s.context.doc.content);
  const counts = useMemo(() => countsOf(content, type), [content, type]);
  // Text edits leave the counts as they were: only a different key asks the server again.
  const key = JSON.stringify(counts);
  const [state, setState] = useState<{ price: ProjectPrice | null; error: string | null; key: string }>({
    price: null,
    error: null,
    key: '',
  });

  useEffect(() => {
    const ctrl = new AbortController();
    const t = setTimeout(() => {
      getProjectPrice(pid, JSON.parse(key), ctrl.signal)
        .then((price) => setState({ price, error: null, key }))
        .catch((err: unknown) => {
          if ((err as Error)?.name === 'AbortError') return;
          setState((s) => ({ ...s, error: (err as Error).message, key }));
        });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(t);
      ctrl.abort();
    };
  }, [pid, key]);

  const money = (x: number) => formatMoney(locale, x);
  const { price, error } = state;
  const stale = state.key !== key;
  return (
    <>
      {/* Pictures waiting in the browser for the connection: said just above the footer. */}
      <PictureQueueStatus />
      <footer
        aria-label={LL.panels.price.title()}
        aria-busy={stale}
        data-testid="price-footer"
        className="flex flex-wrap items-center gap-x-6 gap-y-1 border-t border-slate-200 bg-white px-4 py-2 text-sm text-slate-700"
      >
        <span className="font-semibold text-slate-800">{LL.panels.price.title()}</span>
        {error ? (
          <span role="alert" className="text-red-800">
            {LL.panels.price.failed({ message: error })}
          </span>
        ) : !price ? (
          <span>{LL.panels.price.loading()}</span>
        ) : (
          <>
            <span data-testid="price-per-respondent">
              {LL.panels.price.perRespondent({ amount: money(price.perRespondent) })}
            </span>
            {price.respondents > 0 ? (
              <span data-testid="price-total">
                {LL.panels.price.total({
                  shown: price.respondents.toLocaleString(locale),
                  count: price.respondents,
                  amount: money(price.total),
                })}
              </span>
            ) : type === 2 ? (
              <span className="text-slate-600">{LL.panels.price.noRespondents()}</span>
            ) : null}
            <span className="text-slate-600">{LL.panels.price.oneOff({ amount: money(price.oneOff) })}</span>
          </>
        )}
      </footer>
    </>
  );
}
