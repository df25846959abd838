import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useI18nContext } from '../../i18n/i18n-react';
import { downloadReport, getReport, reportQuery, STATS_PATH } from '../../api/reports';
import { LabelsSelect } from './LabelsSelect';
import { arrivedEarly, callKey, earlyOr, forgetEarly } from '../../api/early';
import type { ReportFilters as Filters, ReportFormat, ReportJson } from '../../domain/reports';
import { Button } from '../ui/Button';
import { notify } from '../ui/toast';
import { errorMessage, formatDate, StatusBadge } from '../projects/labels';
import { ReportFilters } from './ReportFilters';
import { QuestionCard } from './QuestionCard';
import { CompareSection } from './CompareSection';
import { filtersFromSearch, searchWith } from './reportUrl';
import { DropOff } from './DropOff';
import { useSlices } from './whenShown';
import { formatNumber } from '../ui/formatNumber';
import { QualityCard, responsesHref } from './QualityCard';
import { FieldProgress } from './FieldProgress';

// /report?pid=… (spec section 2): the report of one project, read from GET /project/stats/file
// type=json with the filters and the portrait as query parameters. Respondent counters, one chart
// and table per question, where respondents give up and how long they take (DropOff), the
// respondents' cities and regions, downloads (XLSX, CSV, SPSS) with progress,
// Refresh report and To project. This page (and uPlot with it) loads only when opened.

type Load =
  | { state: 'loading'; report: ReportJson | null }
  | { state: 'ready'; report: ReportJson }
  | { state: 'failed'; report: ReportJson | null; message: string };

/** Which question's written answers are paged or searched (the others show their first page). */
type OpenTexts = { id: string; page: number; search: string } | null;

function useReport(pid: number, filters: Filters, open: OpenTexts, nonce: number) {
  // The report as the start-up asked for it, when its answer is already here (earlyCalls.ts).
  const [firstKey] = useState(() => callKey(STATS_PATH, reportQuery(pid, filters)));
  const [load, setLoad] = useState<Load>(() => {
    const report = arrivedEarly<ReportJson>(firstKey);
    return report ? { state: 'ready', report } : { state: 'loading', report: null };
  });
  const skipFirst = useRef(load.state === 'ready');
  useEffect(() => {
    if (skipFirst.current) {
      skipFirst.current = false; // shown already
      forgetEarly(firstKey);
      return;
    }
    const ac = new AbortController();
    setLoad((l) => ({ state: 'loading', report: l.report }));
    const opts = { openPage: open?.page, openQuestion: open?.id, textSearch: open?.search };
    // The start-up may have asked for this very report already (earlyCalls.ts); a refresh asks again.
    const ask = () => getReport(pid, filters, { ...opts, signal: ac.signal });
    (nonce === 0 ? earlyOr(callKey(STATS_PATH, reportQuery(pid, filters, opts)), ask) : ask())
      .then((report) => {
        if (!ac.signal.aborted) setLoad({ state: 'ready', report });
      })
      .catch((err: unknown) => {
        if (ac.signal.aborted) return;
        setLoad((l) => ({ state: 'failed', report: l.report, message: errorMessage(err) }));
      });
    return () => ac.abort();
  }, [pid, filters, open, nonce, firstKey]);
  return load;
}

const sizeText = (bytes: number, locale: string) =>
  bytes < 1024 * 1024
    ? `${formatNumber(bytes / 1024, locale, { maximumFractionDigits: 0 })} KB`
    : `${formatNumber(bytes / 1024 / 1024, locale, { maximumFractionDigits: 1 })} MB`;

function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function Counter({ label, value, name }: { label: string; value: number; name: string }) {
  const { locale } = useI18nContext();
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-3">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums text-slate-800" data-counter={name}>
        {formatNumber(value, locale)}
      </dd>
    </div>
  );
}

function PlacesTable({
  title,
  rows,
}: {
  title: string;
  rows: { id: string; name: string; count: number }[];
}) {
  const { LL, locale } = useI18nContext();
  if (rows.length === 0) return null;
  return (
    <div className="min-w-0 overflow-x-auto">
      <table className="w-full text-sm">
        <caption className="mb-1 text-left font-medium text-slate-700">{title}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-left text-slate-600">
            <th scope="col" className="py-1 pr-3 font-medium">
              {LL.reports.table.place()}
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              {LL.reports.table.count()}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, 20).map((r) => (
            <tr key={r.id} className="border-b border-slate-100 last:border-0">
              <th scope="row" className="py-1 pr-3 text-left font-normal text-slate-800">
                {r.name}
              </th>
              <td className="py-1 pr-3 text-right tabular-nums">{formatNumber(r.count, locale)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Report({ pid }: { pid: number }) {
  const { LL, locale } = useI18nContext();
  const P = LL.reports.page;
  // The filters live in the address too (reportUrl.ts), so a copied link opens the same view.
  const [filters, setFilters] = useState<Filters>(() => filtersFromSearch(window.location.search));
  const [, navigate] = useLocation();
  const [open, setOpen] = useState<OpenTexts>(null);
  const [nonce, setNonce] = useState(0);
  const [cities, setCities] = useState<{ id: string; name: string }[]>([]);
  const [download, setDownload] = useState<{ format: ReportFormat; bytes: number } | null>(null);
  /** The files' texts language (null: the source, the server's default). */
  const [labels, setLabels] = useState<string | null>(null);
  const load = useReport(pid, filters, open, nonce);
  const report = load.report;
  // The sections below the filters (drop-off, compare, a card per question, places) one per task
  // (whenShown.ts): the first render is the title, counters and filters only, not one long task.
  const sections = useSlices(report ? report.questions.length + 3 : 0);

  const changeFilters = useCallback(
    (f: Filters) => {
      setOpen(null);
      setFilters(f);
      navigate(`/report?${searchWith(window.location.search, { filters: f })}`, { replace: true });
    },
    [navigate],
  );

  // The city choices: every city seen so far, so narrowing by one filter keeps the others offered.
  useEffect(() => {
    if (!report) return;
    setCities((old) => {
      const all = new Map([...old, ...report.cities].map((c) => [c.id, c.name]));
      if (all.size === old.length) return old;
      return [...all]
        .map(([id, name]) => ({ id, name }))
        .sort((a, b) => a.name.localeCompare(b.name, locale));
    });
  }, [report, locale]);

  useEffect(() => {
    if (report) document.title = P.title({ name: report.project.name });
  }, [report, P]);

  async function startDownload(format: ReportFormat) {
    setDownload({ format, bytes: 0 });
    try {
      const file = await downloadReport(pid, format, filters, {
        locale,
        labels: labels ?? undefined,
        onProgress: (bytes) => setDownload({ format, bytes }),
      });
      saveBlob(file.blob, file.fileName);
      notify.success(P.downloaded());
    } catch (err) {
      notify.error(`${P.downloadFailed()}: ${errorMessage(err)}`);
    } finally {
      setDownload(null);
    }
  }

  if (!report) {
    return load.state === 'failed' ? (
      <section className="p-4 sm:p-6">
        <p role="alert" className="text-red-800">
          {load.message}
        </p>
        <Button variant="secondary" className="mt-3" onClick={() => setNonce((n) => n + 1)}>
          {P.refresh()}
        </Button>
      </section>
    ) : (
      <p role="status" className="p-6 text-slate-600">
        {P.loading()}
      </p>
    );
  }

  const r = report.respondents;
  const money = (x: number) =>
    formatNumber(x, locale, { style: 'currency', currency: 'RUB', maximumFractionDigits: 2 });
  const filtered = Object.values(filters).some((v) => v !== undefined);
  const nobody = report.countersAvailable && r.started === 0;

  return (
    <section id="report" className="flex flex-col gap-4 p-4 sm:p-6" aria-busy={load.state === 'loading'}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-xl font-semibold sm:text-2xl break-words text-slate-800">
            {P.title({ name: report.project.name })}
          </h1>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600">
            <StatusBadge status={report.project.status} />
            <span>{report.final ? P.final() : P.live()}</span>
            {/* The separator only where the time follows on the same line. */}
            <span>
              <span aria-hidden="true" className="hidden sm:inline">
                ·{' '}
              </span>
              {P.updatedAt({ time: formatDate(locale, report.generatedAt) })}
            </span>
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Link
            href={`/project?pid=${pid}`}
            className="rounded-md px-3 py-2 text-sm font-medium text-indigo-700 hover:bg-indigo-50"
          >
            {P.toProject()}
          </Link>
          <Link
            href={responsesHref(pid, filters)}
            className="rounded-md px-3 py-2 text-sm font-medium text-indigo-700 hover:bg-indigo-50"
          >
            {P.responses()}
          </Link>
          <Button
            variant="secondary"
            onClick={() => setNonce((n) => n + 1)}
            disabled={load.state === 'loading'}
          >
            {P.refresh()}
          </Button>
          <LabelsSelect
            languages={report.languages ?? []}
            value={labels ?? report.languages?.[0] ?? ''}
            onChange={setLabels}
          />
          <Button
            variant="secondary"
            disabled={download !== null || !report.available}
            onClick={() => void startDownload('csv')}
          >
            {P.downloadCsv()}
          </Button>
          <Button
            variant="secondary"
            disabled={download !== null || !report.available}
            onClick={() => void startDownload('sav')}
          >
            {LL.reports.downloadSav()}
          </Button>
          <Button
            disabled={download !== null || !report.available}
            onClick={() => void startDownload('xlsx')}
          >
            {P.downloadXlsx()}
          </Button>
        </div>
      </div>

      {download && (
        <div
          role="status"
          className="flex flex-col gap-1 rounded-md bg-indigo-50 p-3 text-sm text-indigo-900"
        >
          <span>{P.downloading({ size: sizeText(download.bytes, locale) })}</span>
          <progress
            className="h-2 w-full"
            aria-label={P.downloading({ size: sizeText(download.bytes, locale) })}
          />
        </div>
      )}
      {load.state === 'failed' && (
        <p role="alert" className="text-sm text-red-800">
          {load.message}
        </p>
      )}

      {report.countersAvailable ? (
        <dl
          className={`grid grid-cols-2 gap-3 ${r.excluded === undefined ? 'sm:grid-cols-4' : 'sm:grid-cols-5'}`}
        >
          <Counter name="started" label={LL.reports.counters.started()} value={r.started} />
          <Counter name="completed" label={LL.reports.counters.completed()} value={r.completed} />
          <Counter name="screenedOut" label={LL.reports.counters.screenedOut()} value={r.screenedOut} />
          <Counter name="inProgress" label={LL.reports.counters.inProgress()} value={r.inProgress} />
          {r.excluded !== undefined && (
            <Counter name="excluded" label={LL.reports.counters.excluded()} value={r.excluded} />
          )}
        </dl>
      ) : (
        <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">{P.countersHidden()}</p>
      )}

      {report.price && report.countersAvailable && (
        // What the accepted completes cost (issue 31): excluded completes are not paid for.
        <p className="text-sm text-slate-700" data-price={report.price.total}>
          {P.price({ total: money(report.price.total) })}{' '}
          <span className="text-slate-600">
            {P.priceDetail({
              oneOff: money(report.price.oneOff),
              perRespondent: money(report.price.perRespondent),
              accepted: formatNumber(report.price.accepted, locale),
            })}
            {report.price.excluded > 0 &&
              ` ${P.priceExcluded({ count: formatNumber(report.price.excluded, locale) })}`}
          </span>
        </p>
      )}

      {/* Quality and field progress side by side on a wide screen: the charts below stay near the top. */}
      {(report.quality || (report.field && report.field.portraits.length > 0)) && (
        <div className="grid gap-4 lg:grid-cols-2">
          {report.quality && <QualityCard pid={pid} filters={filters} quality={report.quality} />}
          {report.field && report.field.portraits.length > 0 && <FieldProgress field={report.field} />}
        </div>
      )}

      {report.field && report.field.portraits.length > 0
        ? null
        : report.portraits.length > 0 &&
          report.countersAvailable && (
            <section
              aria-labelledby="report-portraits"
              className="rounded-lg border border-slate-200 bg-white p-4"
            >
              <h2 id="report-portraits" className="mb-2 text-base font-semibold text-slate-800">
                {P.portraitsTitle()}
              </h2>
              <ul className="grid gap-2 sm:grid-cols-2">
                {report.portraits.map((p) => (
                  <li key={p.id} className="flex flex-col gap-1 text-sm">
                    <span className="flex justify-between gap-2">
                      <span className="truncate">{p.name || p.id}</span>
                      <span className="tabular-nums">
                        {P.portraitProgress({ completed: p.completed, target: p.target })}
                      </span>
                    </span>
                    <progress
                      className="h-2 w-full"
                      max={Math.max(1, p.target)}
                      value={Math.min(p.completed, p.target)}
                      aria-label={`${p.name || p.id}: ${P.portraitProgress({ completed: p.completed, target: p.target })}`}
                    />
                  </li>
                ))}
              </ul>
            </section>
          )}

      <ReportFilters
        value={filters}
        onChange={changeFilters}
        cities={cities}
        portraits={report.portraits}
        languages={report.languages}
      />

      {!report.available ? (
        <p className="rounded-md bg-amber-50 p-4 text-amber-900">{P.notAvailable()}</p>
      ) : nobody ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center" data-empty>
          <h2 className="text-lg font-semibold text-slate-800">{filtered ? P.noMatch() : P.noAnswers()}</h2>
          {!filtered && <p className="mt-1 text-slate-600">{P.noAnswersHint()}</p>}
        </div>
      ) : (
        <>
          {sections > 0 && <DropOff report={report} />}
          {sections > 1 && (
            <CompareSection
              pid={pid}
              filters={filters}
              questions={report.questions}
              languages={report.languages}
            />
          )}
          {report.questions.slice(0, Math.max(0, sections - 2)).map((q) => (
            <QuestionCard
              key={q.id}
              q={q}
              search={open?.id === q.id ? open.search : ''}
              onTexts={({ page, search }) => setOpen({ id: q.id, page, search })}
            />
          ))}
          {sections > report.questions.length + 2 &&
            (report.cities.length > 0 || report.regions.length > 0) && (
              <section
                aria-labelledby="report-places"
                className="rounded-lg border border-slate-200 bg-white p-4"
              >
                <h2 id="report-places" className="mb-2 text-base font-semibold text-slate-800">
                  {P.places()}
                </h2>
                <div className="grid gap-4 sm:grid-cols-2">
                  <PlacesTable title={P.cities()} rows={report.cities} />
                  <PlacesTable title={P.regions()} rows={report.regions} />
                </div>
              </section>
            )}
        </>
      )}
    </section>
  );
}

export default function ReportPage() {
  const { LL } = useI18nContext();
  const pid = Number(new URLSearchParams(useSearch()).get('pid'));
  if (!Number.isInteger(pid) || pid < 1 || pid > 999_999_999) {
    return (
      <p role="alert" className="p-8 text-slate-700">
        {LL.reports.page.missingPid()}
      </p>
    );
  }
  return <Report key={pid} pid={pid} />;
}
