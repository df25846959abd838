import { lazy, Suspense, useEffect, useMemo, useState, type FormEvent } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import type { Game } from '../../domain/games';
import { DAY_MS, STATS_MAX_DAYS, type GameDayStats, type GameStats } from '../../domain/players';
import { getGameStats } from '../../api/players';
import { Field } from '../ui/Field';
import { Button } from '../ui/Button';
import { errorMessage } from './format';
import type { StatsSeries } from './StatsChart';
import { PlayerRecordPanel } from './PlayerRecordPanel';
import { formatNumber } from '../ui/formatNumber';

// A game's numbers (issue 24, part 3), opened from its row on /games: per UTC day what the SDK was
// offered, how many players started, completed and were screened out, and the block callbacks
// delivered and failed. A chart for looking (uPlot, loaded only here) and a table for reading.

const StatsChart = lazy(() => import('./StatsChart'));

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const COLUMNS: (keyof Omit<GameDayStats, 'date'>)[] = [
  'offered',
  'started',
  'completed',
  'excluded',
  'screenedOut',
  'delivered',
  'failed',
];
// Colours keep 3:1 against white (graphics) and differ in lightness, not only in hue.
const CHARTED: { key: StatsSeries['key']; color: string }[] = [
  { key: 'offered', color: '#475569' },
  { key: 'started', color: '#4338ca' },
  { key: 'completed', color: '#047857' },
  { key: 'screenedOut', color: '#b45309' },
];

export function GameStatsPanel({ game, onClose }: { game: Game; onClose: () => void }) {
  const { LL, locale } = useI18nContext();
  const T = LL.players.stats;
  const today = Date.now();
  const [from, setFrom] = useState(isoDay(today - 29 * DAY_MS));
  const [to, setTo] = useState(isoDay(today));
  const [query, setQuery] = useState({ from, to });
  const [stats, setStats] = useState<GameStats | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    setError(null);
    getGameStats({ gameId: game.id, ...query }, controller.signal).then(
      (s) => {
        setStats(s);
        setLoading(false);
      },
      (err) => {
        if (controller.signal.aborted) return;
        setError(errorMessage(err));
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [game.id, query]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setQuery({ from, to });
  };
  const series = useMemo(() => CHARTED.map((s) => ({ ...s, label: T[s.key]() })), [T]);
  const number = (n: number) => formatNumber(n, locale);
  const rangeError =
    from && to && (from > to || (Date.parse(to) - Date.parse(from)) / DAY_MS + 1 > STATS_MAX_DAYS)
      ? LL.players.errors.range({ max: STATS_MAX_DAYS })
      : null;
  const empty = stats && stats.totals.offered + stats.totals.started === 0;

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <form className="flex flex-wrap items-end gap-3" onSubmit={submit} noValidate>
        <Field label={T.from()} type="date" value={from} max={to} onChange={(e) => setFrom(e.target.value)} />
        <Field
          label={T.to()}
          type="date"
          value={to}
          min={from}
          onChange={(e) => setTo(e.target.value)}
          error={rangeError}
        />
        <Button type="submit" disabled={!!rangeError || !from || !to}>
          {T.show()}
        </Button>
      </form>
      <div aria-live="polite" className="min-h-1">
        {loading && (
          <div
            role="progressbar"
            aria-label={T.loading()}
            className="h-1 w-full overflow-hidden bg-indigo-100"
          >
            <div className="h-full w-1/3 animate-pulse bg-indigo-600" />
          </div>
        )}
        {error && <p className="text-sm text-red-800">{error}</p>}
      </div>
      {stats && (
        <>
          {empty ? (
            <p className="text-sm text-slate-700">{T.empty()}</p>
          ) : (
            <Suspense fallback={<div className="h-[220px]" />}>
              <StatsChart days={stats.days} series={series} label={T.chart()} />
            </Suspense>
          )}
          <div
            className="max-h-72 overflow-auto rounded border border-slate-200"
            tabIndex={0}
            role="region"
            aria-label={T.caption()}
          >
            <table className="w-full text-right text-sm">
              <caption className="sr-only">{T.caption()}</caption>
              <thead className="sticky top-0 bg-slate-50 text-xs text-slate-700">
                <tr>
                  <th scope="col" className="px-3 py-2 text-left font-medium">
                    {T.date()}
                  </th>
                  {COLUMNS.map((c) => (
                    <th key={c} scope="col" className="px-3 py-2 font-medium">
                      {T[c]()}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {stats.days.map((d) => (
                  <tr key={d.date} className="border-t border-slate-100">
                    <th
                      scope="row"
                      className="whitespace-nowrap px-3 py-1.5 text-left font-normal text-slate-800"
                    >
                      {new Date(`${d.date}T00:00:00Z`).toLocaleDateString(locale, { timeZone: 'UTC' })}
                    </th>
                    {COLUMNS.map((c) => (
                      <td key={c} className="px-3 py-1.5 tabular-nums text-slate-800">
                        {number(d[c])}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
              <tfoot className="border-t border-slate-300 font-medium">
                <tr>
                  <th scope="row" className="px-3 py-2 text-left">
                    {T.total()}
                  </th>
                  {COLUMNS.map((c) => (
                    <td key={c} className="px-3 py-2 tabular-nums">
                      {number(stats.totals[c])}
                    </td>
                  ))}
                </tr>
              </tfoot>
            </table>
          </div>
        </>
      )}
      <PlayerRecordPanel game={game} />
      <div className="flex justify-end">
        <Button variant="secondary" onClick={onClose}>
          {T.close()}
        </Button>
      </div>
    </div>
  );
}
