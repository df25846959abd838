import { useI18nContext } from '../../i18n/i18n-react';
import type { FieldPortrait, ReportField } from '../../domain/responses';
import { formatNumber } from '../ui/formatNumber';
import { formatDate } from '../projects/labels';

// "Field progress" on the report (issue 31), for a project with portraits: per portrait, the
// accepted completes (completed and not excluded) against the target as a bar, so the portraits
// that lag show at a glance, with every number in words beside it: target, accepted, excluded, the
// pace over the last 24 hours, and when it will be full at that pace (or "not at this pace" past 30
// days). The bars are drawn for the eye; the words carry the same numbers for everyone.

const BAR: Record<FieldPortrait['state'], string> = {
  full: 'bg-emerald-600',
  eta: 'bg-indigo-600',
  notAtThisPace: 'bg-amber-500',
};

export function FieldProgress({ field }: { field: ReportField }) {
  const { LL, locale } = useI18nContext();
  const F = LL.reports.field;
  const n = (x: number) => formatNumber(x, locale);
  const when = (p: FieldPortrait) =>
    p.state === 'full'
      ? F.full()
      : p.state === 'notAtThisPace' || p.eta === null
        ? F.notAtThisPace()
        : F.fullBy({ time: formatDate(locale, p.eta) });
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
      <ul className="flex flex-col gap-3">
        {field.portraits.map((p) => (
          <li key={p.id} className="flex flex-col gap-1 text-sm" data-field-portrait={p.id}>
            <span className="flex flex-wrap justify-between gap-x-2">
              <span className="min-w-0 truncate font-medium text-slate-800">{p.name || p.id}</span>
              <span className="tabular-nums text-slate-700">
                {F.ofTarget({ accepted: n(p.accepted), target: n(p.target) })}
                {p.excluded > 0 && ` · ${F.excludedBeside({ count: n(p.excluded) })}`}
              </span>
            </span>
            <span aria-hidden="true" className="block h-3 overflow-hidden rounded bg-slate-100">
              <span
                className={`block h-full rounded ${BAR[p.state]}`}
                style={{ width: `${p.target > 0 ? Math.min(1, p.accepted / p.target) * 100 : 0}%` }}
              />
            </span>
            <span className="text-xs text-slate-600">
              {F.paceLine({
                pace: formatNumber(p.perHour, locale, { maximumFractionDigits: 1 }),
                when: when(p),
              })}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
