import { Link } from 'wouter';
import { useI18nContext } from '../../i18n/i18n-react';
import type { TranslationFunctions } from '../../i18n/i18n-types';
import type { ReportFilters } from '../../domain/reports';
import type { ReportQuality } from '../../domain/responses';
import { formatNumber } from '../ui/formatNumber';

// The report's "Response quality" card (issue 31): the share of accepted completes the server has
// flagged, each flag with its count as a bar, the excluded beside, and links to the respondents list
// filtered the same way (the report's filters carried over), where they can be read and excluded.

/** /responses with the report's filters and the list's own. */
export function responsesHref(pid: number, filters: ReportFilters, extra: Record<string, string> = {}) {
  const q = new URLSearchParams({ pid: String(pid) });
  for (const [k, v] of Object.entries(filters)) if (v !== undefined && v !== '') q.set(k, String(v));
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return `/responses?${q}`;
}

const flagText = (LL: TranslationFunctions, name: string) => {
  const Q = LL.reports.quality.flags;
  return name === 'speeder'
    ? Q.speeder()
    : name === 'straight-liner'
      ? Q.straightLiner()
      : name === 'gibberish'
        ? Q.gibberish()
        : name === 'duplicate'
          ? Q.duplicate()
          : name;
};

const LINK =
  'rounded font-medium text-indigo-700 underline-offset-2 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500';

export function QualityCard({
  pid,
  filters,
  quality,
}: {
  pid: number;
  filters: ReportFilters;
  quality: ReportQuality;
}) {
  const { LL, locale } = useI18nContext();
  const Q = LL.reports.quality;
  const n = (x: number) => formatNumber(x, locale);
  const most = Math.max(1, ...quality.flags.map((f) => f.count));
  const s = quality.speeder;
  const duration = (sec: number) =>
    LL.reports.timing.duration({ minutes: Math.floor(sec / 60), seconds: Math.round(sec % 60) });
  return (
    <section
      aria-labelledby="report-quality"
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4"
      data-quality
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="report-quality" className="text-base font-semibold text-slate-800">
          {Q.title()}
        </h2>
        <Link href={responsesHref(pid, filters)} className={`text-sm ${LINK}`}>
          {Q.allResponses()}
        </Link>
      </div>
      <div className="grid gap-4 md:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
        <div className="flex flex-col gap-1">
          <dl className="flex flex-col-reverse gap-1">
            <dt className="text-sm text-slate-600">
              {Q.share({ flagged: n(quality.flagged), completed: n(quality.completed) })}
            </dt>
            <dd className="text-3xl font-semibold tabular-nums text-slate-800" data-quality-percent>
              {formatNumber(quality.percent, locale, { maximumFractionDigits: 1 })} %
            </dd>
          </dl>
          {quality.flagged > 0 && (
            <Link href={responsesHref(pid, filters, { flag: 'any' })} className={`text-sm ${LINK}`}>
              {Q.openFlagged()}
            </Link>
          )}
          <p className="mt-2 text-sm text-slate-700">
            {Q.excluded()}:{' '}
            <Link
              href={responsesHref(pid, filters, { excluded: 'only' })}
              className={LINK}
              aria-label={Q.openExcluded({ count: n(quality.excluded) })}
              data-quality-excluded={quality.excluded}
            >
              {n(quality.excluded)}
            </Link>
          </p>
        </div>
        <ul className="flex flex-col gap-2" aria-label={Q.byFlag()}>
          {quality.flags.map((f) => (
            <li
              key={f.name}
              className="grid grid-cols-[minmax(0,9rem)_minmax(0,1fr)_auto] items-center gap-2 text-sm"
            >
              <Link
                href={responsesHref(pid, filters, { flag: f.name })}
                className={`truncate ${LINK}`}
                data-quality-flag={f.name}
              >
                {flagText(LL, f.name)}
              </Link>
              <span aria-hidden="true" className="h-3 overflow-hidden rounded bg-slate-100">
                <span
                  className="block h-full rounded bg-orange-500"
                  style={{ width: `${(f.count / most) * 100}%` }}
                />
              </span>
              <span className="tabular-nums text-slate-800" data-quality-count={f.name}>
                {n(f.count)}
              </span>
            </li>
          ))}
        </ul>
      </div>
      <p className="text-xs text-slate-600">
        {s.medianSeconds !== null && s.thresholdSeconds !== null
          ? Q.speederRule({
              percent: s.percent,
              median: duration(s.medianSeconds),
              threshold: duration(s.thresholdSeconds),
            })
          : Q.speederWaits({ count: s.minCompleted })}
      </p>
    </section>
  );
}
