import { lazy, Suspense, useMemo } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import type { ReportJson } from '../../domain/reports';
import { Chart } from './Chart';
import { PALETTE, type ChartSpec } from './charts';
import { ReportTable } from './ReportTable';
import { CHART_HEIGHT } from './chartHeight';
import { formatNumber } from '../ui/formatNumber';
import { usePainted } from '../ui/afterPaint';

// Where respondents give up and how long they take (GET /project/stats/file type=json: funnel,
// timing, timeline): the questions most people left at first, as bars and as a table; the median
// and 90th percentile time to complete; and starts and completions per day (UTC) as lines with a
// table beside. Every chart is an image with a name; the tables carry the same numbers.

const MAX_BARS = 12;
const DaysChart = lazy(() => import('./DaysChart'));

export function DropOff({ report }: { report: ReportJson }) {
  const { LL, locale } = useI18nContext();
  const D = LL.reports.dropOff;
  const T = LL.reports.timing;
  const L = LL.reports.timeline;
  const n = (x: number) => formatNumber(x, locale);
  // The timeline's chunk (with the chart library) is asked for once the report has painted; its box
  // keeps the chart's height until then.
  const painted = usePainted();
  const chartBox = <div style={{ height: CHART_HEIGHT }} />;
  const duration = (s: number | null) =>
    s === null ? '—' : T.duration({ minutes: Math.floor(s / 60), seconds: Math.round(s % 60) });

  const byId = useMemo(() => new Map(report.questions.map((q) => [q.id, q])), [report.questions]);
  // Worst first: the most who gave up there (screened out apart), then questionnaire order.
  const worst = useMemo(
    () =>
      report.funnel
        .map((s, i) => ({ ...s, gaveUp: s.leftHere - s.screenedOut, order: i }))
        .sort((a, b) => b.gaveUp - a.gaveUp || b.screenedOut - a.screenedOut || a.order - b.order),
    [report.funnel],
  );
  const spec = useMemo<ChartSpec>(() => {
    const top = worst.filter((s) => s.gaveUp > 0).slice(0, MAX_BARS);
    return {
      kind: 'bars',
      x: top.map((_, i) => i),
      labels: top.map((s) => D.questionShort({ number: byId.get(s.questionId)?.number ?? s.order + 1 })),
      series: [{ label: D.gaveUp(), values: top.map((s) => s.gaveUp), color: PALETTE[6] }],
    };
  }, [worst, byId, D]);
  const names = useMemo<[string, string]>(() => [L.started(), L.completed()], [L]);
  if (report.funnel.length === 0) return null;
  const title = (id: string) => {
    const q = byId.get(id);
    return q ? `${q.number}. ${q.text}` : id;
  };

  return (
    <section
      aria-labelledby="report-dropoff"
      className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4"
      data-dropoff
    >
      <div>
        <h2 id="report-dropoff" className="text-lg font-semibold text-slate-800">
          {D.title()}
        </h2>
        <p className="text-sm text-slate-600">{D.hint()}</p>
      </div>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        {spec.x.length > 0 ? (
          <Chart spec={spec} label={D.chart()} />
        ) : (
          <p className="text-sm text-slate-600">{D.none()}</p>
        )}
        <ReportTable
          caption={D.table()}
          head={[D.question(), D.reached(), D.answered(), D.gaveUp(), D.screenedOut()]}
          rows={worst.map((s) => [
            title(s.questionId),
            n(s.reached),
            n(s.answered),
            n(s.gaveUp),
            n(s.screenedOut),
          ])}
        />
      </div>

      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,3fr)]">
        <div>
          <h3 className="mb-2 text-base font-semibold text-slate-800">{T.title()}</h3>
          {report.timing.completed === 0 ? (
            <p className="text-sm text-slate-600">{T.none()}</p>
          ) : (
            <dl className="grid grid-cols-1 gap-2 text-sm">
              <div className="rounded-md bg-slate-50 p-2">
                <dt className="text-slate-600">{T.median()}</dt>
                <dd className="text-lg font-semibold tabular-nums text-slate-800" data-timing="median">
                  {duration(report.timing.medianSeconds)}
                </dd>
              </div>
              <div className="rounded-md bg-slate-50 p-2">
                <dt className="text-slate-600">{T.p90()}</dt>
                <dd className="text-lg font-semibold tabular-nums text-slate-800" data-timing="p90">
                  {duration(report.timing.p90Seconds)}
                </dd>
              </div>
              <div className="rounded-md bg-slate-50 p-2">
                <dt className="text-slate-600">{T.completed()}</dt>
                <dd className="text-lg font-semibold tabular-nums text-slate-800">
                  {n(report.timing.completed)}
                </dd>
              </div>
            </dl>
          )}
        </div>
        <div className="flex min-w-0 flex-col gap-2">
          <h3 className="text-base font-semibold text-slate-800">{L.title()}</h3>
          <div className="grid gap-4 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
            {painted ? (
              <Suspense fallback={chartBox}>
                <DaysChart days={report.timeline} label={L.chart()} names={names} />
              </Suspense>
            ) : (
              chartBox
            )}
            <ReportTable
              caption={L.table()}
              head={[L.day(), L.started(), L.completed()]}
              rows={[...report.timeline].reverse().map((d) => [d.day, n(d.started), n(d.completed)])}
            />
          </div>
        </div>
      </div>
    </section>
  );
}
