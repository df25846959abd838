import { useI18nContext } from '../../i18n/i18n-react';
import type { FieldPortrait, ReportField } from '../../domain/responses';
import { ReportTable } from './ReportTable';
import { formatNumber } from '../ui/formatNumber';
import { formatDate } from '../projects/labels';

// "Field progress" on the report (issue 31), for a project with portraits: each portrait's accepted
// completes (completed and not excluded) against its target as a bar, so the portraits that lag
// show at a glance, and a table with the numbers: target, accepted, excluded beside, the pace over
// the last 24 hours, and when it will be full at that pace (or "not at this pace" past 30 days).

export function FieldProgress({ field }: { field: ReportField }) {
  const { LL, locale } = useI18nContext();
  const F = LL.reports.field;
  const n = (x: number) => formatNumber(x, locale);
  const when = (p: FieldPortrait) =>
    p.state === 'full'
      ? F.full()
      : p.state === 'notAtThisPace' || p.eta === null
        ? F.notAtThisPace()
        : formatDate(locale, p.eta);
  const name = (p: FieldPortrait) => p.name || p.id;
  return (
    <section
      aria-labelledby="report-field"
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4"
      data-field
    >
      <div>
        <h2 id="report-field" className="text-base font-semibold text-slate-800">
          {F.title()}
        </h2>
        <p className="text-sm text-slate-600">{F.hint()}</p>
      </div>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        {/* The bars are the picture; the table beside carries every number for everyone. */}
        <figure className="m-0 flex flex-col gap-2" role="img" aria-label={F.chart()} data-chart="field">
          {field.portraits.map((p) => {
            const share = p.target > 0 ? Math.min(1, p.accepted / p.target) : 0;
            return (
              <div key={p.id} className="flex flex-col gap-1 text-sm" aria-hidden="true">
                <span className="flex justify-between gap-2">
                  <span className="truncate text-slate-800">{name(p)}</span>
                  <span className="shrink-0 tabular-nums text-slate-700">
                    {F.ofTarget({ accepted: n(p.accepted), target: n(p.target) })}
                  </span>
                </span>
                <span className="relative block h-3 overflow-hidden rounded bg-slate-100">
                  <span
                    className={`block h-full rounded ${p.state === 'full' ? 'bg-emerald-600' : p.state === 'eta' ? 'bg-indigo-600' : 'bg-amber-500'}`}
                    style={{ width: `${share * 100}%` }}
                  />
                </span>
                <span className="text-xs text-slate-600">
                  {F.paceLine({
                    pace: formatNumber(p.perHour, locale, { maximumFractionDigits: 1 }),
                    when: when(p),
                  })}
                </span>
              </div>
            );
          })}
        </figure>
        <ReportTable
          caption={F.table()}
          head={[F.portrait(), F.target(), F.accepted(), F.excluded(), F.pace(), F.eta()]}
          rows={field.portraits.map((p) => [
            name(p),
            n(p.target),
            n(p.accepted),
            n(p.excluded),
            formatNumber(p.perHour, locale, { maximumFractionDigits: 1 }),
            when(p),
          ])}
        />
      </div>
    </section>
  );
}
