import { useCallback, useEffect, useState } from 'react';
import { fetchDeliveries, retryDelivery, sendTestCall } from '../../../api/callbacks';
import { RETRYABLE, type Delivery, type DeliveryStatus } from '../../../domain/callbacks';
import { useI18nContext } from '../../../i18n/i18n-react';

// The block panel's callback section (docs/decisions/callbacks.md): the block's last deliveries and
// their state, read every few seconds while the panel is open, "Send a test call" and "Send again"
// for the roles that change block settings.

const SHOWN = 5;
const REFRESH_MS = 3000;

const BADGE: Record<DeliveryStatus, string> = {
  pending: 'bg-amber-100 text-amber-900',
  delivered: 'bg-green-100 text-green-900',
  failed: 'bg-red-100 text-red-900',
  'gave-up': 'bg-red-100 text-red-900',
  refused: 'bg-slate-200 text-slate-900',
};

const BUTTON =
  'rounded border border-slate-300 px-2 py-1 text-xs text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:opacity-60';

export function BlockCallbacks(props: { pid: number; blockId: string; hasUrl: boolean; mayChange: boolean }) {
  const { LL, locale } = useI18nContext();
  const { pid, blockId } = props;
  const [items, setItems] = useState<Delivery[] | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    async (signal?: AbortSignal) => {
      try {
        setItems((await fetchDeliveries(pid, blockId, SHOWN, signal)).items);
      } catch (err) {
        if ((err as Error).name !== 'AbortError') setMessage({ ok: false, text: (err as Error).message });
      }
    },
    [pid, blockId],
  );
  useEffect(() => {
    const ctrl = new AbortController();
    void load(ctrl.signal);
    const timer = setInterval(() => void load(ctrl.signal), REFRESH_MS);
    return () => {
      ctrl.abort();
      clearInterval(timer);
    };
  }, [load]);

  const act = async (what: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await what();
      setMessage({ ok: true, text: done });
      await load();
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    } finally {
      setBusy(false);
    }
  };
  const when = (ms: number) => new Date(ms).toLocaleString(locale);

  if (!props.hasUrl && (items?.length ?? 0) === 0) return null;
  return (
    <section
      aria-labelledby={`callbacks-${blockId}`}
      className="flex flex-col gap-2"
      data-testid="block-callbacks"
    >
      <div className="flex items-center justify-between gap-2">
        <h3 id={`callbacks-${blockId}`} className="text-xs font-medium text-slate-700">
          {LL.callbacks.title()}
        </h3>
        <button type="button" className={BUTTON} onClick={() => void load()} title={LL.callbacks.refresh()}>
          {LL.callbacks.refreshShort()}
        </button>
      </div>
      {props.mayChange && props.hasUrl && (
        <button
          type="button"
          className={`${BUTTON} self-start`}
          disabled={busy}
          onClick={() => void act(() => sendTestCall(pid, blockId), LL.callbacks.testQueued())}
        >
          {LL.callbacks.sendTest()}
        </button>
      )}
      {message && (
        <p
          role={message.ok ? 'status' : 'alert'}
          className={`text-xs ${message.ok ? 'text-green-800' : 'text-red-800'}`}
        >
          {message.text}
        </p>
      )}
      {items && items.length === 0 && <p className="text-xs text-slate-600">{LL.callbacks.empty()}</p>}
      {items && items.length > 0 && (
        <ul className="flex flex-col gap-1" aria-label={LL.callbacks.title()}>
          {items.map((d) => (
            <li
              key={d.id}
              className="rounded border border-slate-200 p-2 text-xs text-slate-800"
              data-status={d.status}
            >
              <div className="flex flex-wrap items-center gap-2">
                <span className={`rounded px-1.5 py-0.5 font-medium ${BADGE[d.status]}`}>
                  {LL.callbacks.status[d.status]()}
                </span>
                {d.test && <span className="text-slate-600">{LL.callbacks.test()}</span>}
                <time dateTime={new Date(d.createdAt).toISOString()} className="text-slate-600">
                  {when(d.createdAt)}
                </time>
              </div>
              <p className="text-slate-700">
                {LL.callbacks.attempts({ count: d.attempts })}
                {d.lastStatusCode !== null && <> · {LL.callbacks.code({ code: d.lastStatusCode })}</>}
              </p>
              {d.lastError && <p className="break-all text-slate-700">{d.lastError}</p>}
              {d.nextAttemptAt !== null && d.attempts > 0 && (
                <p className="text-slate-700">{LL.callbacks.next({ at: when(d.nextAttemptAt) })}</p>
              )}
              {props.mayChange && RETRYABLE.includes(d.status) && (
                <button
                  type="button"
                  className={`${BUTTON} mt-1`}
                  disabled={busy}
                  onClick={() => void act(() => retryDelivery(pid, d.id), LL.callbacks.queued())}
                >
                  {LL.callbacks.retry()}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
