import { lazy, Suspense, useEffect, useId, useMemo, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useI18nContext } from '../../i18n/i18n-react';
import type { TranslationFunctions } from '../../i18n/i18n-types';
import { downloadCrosstab, getCrosstab } from '../../api/crosstab';
import {
  COL_CHOICE,
  CROSSTAB_ATTRIBUTES,
  ROW_CHOICE,
  ROW_NUMERIC,
  ALPHA,
  type CrosstabFinding,
  type CrosstabJson,
} from '../../domain/crosstab';
import type { ReportFilters, ReportQuestion } from '../../domain/reports';
import { Button } from '../ui/Button';
import { notify } from '../ui/toast';
import { errorMessage } from '../projects/labels';
import type { GroupedBars } from './CompareChart';
import { COMPARE_CHART_HEIGHT } from './chartHeight';
import { compareFromSearch, searchWith } from './reportUrl';
import { formatNumber } from '../ui/formatNumber';

// The chart library comes in its own chunk, after the table (issue 25: /report's budget before charts).
const CompareChart = lazy(() => import('./CompareChart').then((m) => ({ default: m.CompareChart })));

// The report's Compare section (issue 23): a question (or matrix statement) in rows against a
// single-choice question or a respondent attribute in columns, from GET /project/stats/crosstab with
// the page's filters. The table (column %, counts, the letters of significant differences), a grouped
// bar chart, one plain sentence per significant finding, and the downloads. Rows and columns live in
// the page's address beside the filters, so a copied link opens the same view.

const CONTROL =
  'w-full rounded border border-slate-300 bg-white px-2 py-2 text-sm outline-none focus:ring-2 focus:ring-indigo-500';

type Load =
  | { state: 'idle' }
  | { state: 'loading'; data: CrosstabJson | null }
  | { state: 'ready'; data: CrosstabJson }
  | { state: 'failed'; message: string };

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

/** "p < 0.001" or "p = 0.012", in the reader's number format. */
export function pText(p: number, LL: TranslationFunctions, locale: string): string {
  const fmt = (n: number) => formatNumber(n, locale, { maximumFractionDigits: 3, minimumFractionDigits: 3 });
  return p < 0.001
    ? LL.compare.findings.pLess({ value: fmt(0.001) })
    : LL.compare.findings.pEquals({ value: fmt(p) });
}

const percent = (n: number, locale: string) => `${formatNumber(n, locale, { maximumFractionDigits: 1 })} %`;
const num = (n: number | null, locale: string, digits = 2) =>
  n === null
    ? '—'
    : formatNumber(n, locale, { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** One significant difference in words. */
export function findingText(
  f: CrosstabFinding,
  x: CrosstabJson,
  LL: TranslationFunctions,
  locale: string,
): string {
  const F = LL.compare.findings;
  const larger = x.cols[f.larger];
  const smaller = x.cols[f.smaller];
  const parts = {
    row: x.rows[f.row].text,
    a: percent(x.cells[f.row][f.larger].colPercent, locale),
    b: percent(x.cells[f.row][f.smaller].colPercent, locale),
    p: pText(f.p, LL, locale),
  };
  const gender = (id: string): id is 'male' | 'female' => id === 'male' || id === 'female';
  if (x.colsOf.kind === 'attribute' && x.colsOf.id === 'gender' && gender(larger.id) && gender(smaller.id))
    return F.gender({
      ...parts,
      larger: LL.compare.genders[larger.id](),
      smaller: LL.compare.gendersAfter[smaller.id](),
    });
  return F.group({ ...parts, larger: larger.text, smaller: smaller.text });
}

function meansText(x: CrosstabJson, LL: TranslationFunctions, locale: string): string | null {
  const test = x.numbers?.test;
  if (!test || test.p >= ALPHA) return null;
  const groups = x.numbers!.cols.map((g, j) => ({ g, col: x.cols[j] })).filter(({ g }) => g.mean !== null);
  if (groups.length < 2) return null;
  const sorted = [...groups].sort((a, b) => a.g.mean! - b.g.mean!);
  const low = sorted[0];
  const high = sorted[sorted.length - 1];
  return LL.compare.findings.means({
    low: num(low.g.mean, locale),
    lowGroup: low.col.text,
    high: num(high.g.mean, locale),
    highGroup: high.col.text,
    p: pText(test.p, LL, locale),
  });
}

const MAX_FINDINGS = 8;

function Findings({ x }: { x: CrosstabJson }) {
  const { LL, locale } = useI18nContext();
  const F = LL.compare.findings;
  const sentences = x.findings.slice(0, MAX_FINDINGS).map((f) => findingText(f, x, LL, locale));
  const means = meansText(x, LL, locale);
  if (means) sentences.unshift(means);
  const low = [x.test, ...(x.rowTests ?? [])].some((t) => t && t.lowExpected > 0.2);
  const lowShare = Math.max(...[x.test, ...(x.rowTests ?? [])].map((t) => t?.lowExpected ?? 0));
  return (
    <div className="flex flex-col gap-2" data-findings>
      <h3 className="text-sm font-semibold text-slate-800">{F.title()}</h3>
      {sentences.length === 0 ? (
        <p className="text-sm text-slate-700" data-finding="none">
          {F.none()}
        </p>
      ) : (
        <ul className="list-disc space-y-1 pl-5 text-sm text-slate-800">
          {sentences.map((s) => (
            <li key={s} data-finding>
              {s}
            </li>
          ))}
          {x.findings.length > MAX_FINDINGS && <li>{F.more({ count: x.findings.length - MAX_FINDINGS })}</li>}
        </ul>
      )}
      {low && (
        <p className="rounded-md bg-amber-50 p-2 text-sm text-amber-900" data-warning="low-expected">
          {F.lowExpected({ share: percent(Math.round(lowShare * 1000) / 10, locale) })}
        </p>
      )}
      <p className="text-xs text-slate-600">
        {x.test &&
          F.test({
            statistic: num(x.test.statistic, locale, 3),
            df: x.test.df,
            p: pText(x.test.p, LL, locale),
          })}
        {x.numbers?.test?.kind === 'welch-t' &&
          F.welch({
            statistic: num(x.numbers.test.statistic, locale, 3),
            df: num(x.numbers.test.df, locale, 1),
            p: pText(x.numbers.test.p, LL, locale),
          })}
        {x.numbers?.test?.kind === 'anova' &&
          F.anova({
            statistic: num(x.numbers.test.statistic, locale, 3),
            df1: x.numbers.test.df1,
            df2: x.numbers.test.df2,
            p: pText(x.numbers.test.p, LL, locale),
          })}
      </p>
    </div>
  );
}

function ColumnHead({ x, j }: { x: CrosstabJson; j: number }) {
  const { LL, locale } = useI18nContext();
  const T = LL.compare.table;
  const c = x.cols[j];
  const base = `n = ${formatNumber(c.total, locale)}`;
  // The letter, the name and the base are apart on screen, but their text alone runs together
  // ("AMenn = 144"): a screen reader gets one sentence-like text ("A, Men, n = 144") instead.
  const spoken = [c.letter, c.text, base, ...(c.smallBase ? [T.smallBase()] : [])].join(', ');
  return (
    <th scope="col" className="px-2 py-1 text-right align-bottom font-medium">
      <span className="sr-only">{spoken}</span>
      <span aria-hidden="true">
        <span className="mr-1 font-semibold text-indigo-800">{c.letter}</span>
        {c.text}
        <span className="block text-xs font-normal text-slate-600">
          {base}
          {c.smallBase && (
            <>
              {' '}
              <abbr title={T.smallBase()} className="text-amber-800" data-small-base>
                ({T.smallBaseMark()})
              </abbr>
            </>
          )}
        </span>
      </span>
    </th>
  );
}

function CrosstabTable({ x, caption }: { x: CrosstabJson; caption: string }) {
  const { LL, locale } = useI18nContext();
  const T = LL.compare.table;
  const noteId = useId();
  // A region that scrolls sideways on a phone: focusable, so a keyboard can scroll it too.
  return (
    <div
      className="min-w-0 overflow-x-auto focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
      role="region"
      aria-label={caption}
      tabIndex={0}
    >
      <table className="w-full text-sm" aria-describedby={noteId} data-crosstab>
        <caption className="mb-1 text-left font-medium text-slate-700">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-slate-600">
            <th scope="col" className="py-1 pr-3 text-left align-bottom font-medium">
              {x.rowsOf.statement ? x.rowsOf.statement.text : x.rowsOf.text}
            </th>
            {x.cols.map((_, j) => (
              <ColumnHead key={x.cols[j].id} x={x} j={j} />
            ))}
            <th scope="col" className="px-2 py-1 text-right align-bottom font-medium">
              {T.total()}
            </th>
            {x.rowTests && (
              <th scope="col" className="px-2 py-1 text-right align-bottom font-medium">
                {T.rowTest()}
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {x.rows.map((r, i) => (
            <tr key={r.id} className="border-b border-slate-100">
              <th scope="row" className="py-1 pr-3 text-left font-normal text-slate-800">
                {r.text}
              </th>
              {x.cells[i].map((c, j) => (
                <td
                  key={x.cols[j].id}
                  className="whitespace-nowrap px-2 py-1 text-right tabular-nums"
                  data-cell={`${i}:${j}`}
                >
                  {percent(c.colPercent, locale)}{' '}
                  <span className="text-xs text-slate-600">({formatNumber(c.count, locale)})</span>
                  {c.letters.length > 0 && (
                    <>
                      {' '}
                      <strong className="text-indigo-800" aria-hidden="true" data-letters>
                        {c.letters.join('')}
                      </strong>
                      <span className="sr-only">{T.largerThan({ letters: c.letters.join(', ') })}</span>
                    </>
                  )}
                </td>
              ))}
              <td className="px-2 py-1 text-right tabular-nums">{formatNumber(x.totals.rows[i], locale)}</td>
              {x.rowTests && (
                <td className="px-2 py-1 text-right tabular-nums">
                  {x.rowTests[i] ? pText(x.rowTests[i]!.p, LL, locale) : '—'}
                </td>
              )}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className="text-slate-700">
            <th scope="row" className="py-1 pr-3 text-left font-medium">
              {T.base()}
            </th>
            {x.cols.map((c) => (
              <td key={c.id} className="px-2 py-1 text-right tabular-nums">
                {formatNumber(c.total, locale)}
              </td>
            ))}
            <td className="px-2 py-1 text-right tabular-nums">{formatNumber(x.totals.all, locale)}</td>
            {x.rowTests && <td />}
          </tr>
        </tfoot>
      </table>
      <p id={noteId} className="mt-2 text-xs text-slate-600">
        {T.letters()} {x.multiple && T.multiple()} {x.cols.some((c) => c.smallBase) && T.smallBase()}
      </p>
    </div>
  );
}

function NumbersTable({ x }: { x: CrosstabJson }) {
  const { LL, locale } = useI18nContext();
  const N = LL.compare.numbers;
  const nps = x.rowsOf.category === 'nps';
  const rows = [
    ...x.cols.map((c, j) => ({ key: c.id, label: `${c.letter} ${c.text}`, g: x.numbers!.cols[j] })),
    { key: '~total', label: LL.compare.table.total(), g: x.numbers!.total },
  ];
  const caption = N.caption({ rows: x.rowsOf.text, cols: x.colsOf.text });
  return (
    <div
      className="min-w-0 overflow-x-auto focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
      role="region"
      aria-label={caption}
      tabIndex={0}
    >
      <table className="w-full text-sm" data-numbers>
        <caption className="mb-1 text-left font-medium text-slate-700">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-slate-600">
            {[N.group(), N.n(), N.mean(), N.sd(), N.ci95(), ...(nps ? [N.nps()] : [])].map((h, k) => (
              <th key={h} scope="col" className={`py-1 pr-3 font-medium ${k ? 'text-right' : 'text-left'}`}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(({ key, label, g }) => (
            <tr key={key} className="border-b border-slate-100">
              <th scope="row" className="py-1 pr-3 text-left font-normal text-slate-800">
                {label}
              </th>
              <td className="py-1 pr-3 text-right tabular-nums">{formatNumber(g.n, locale)}</td>
              <td className="py-1 pr-3 text-right tabular-nums">{num(g.mean, locale)}</td>
              <td className="py-1 pr-3 text-right tabular-nums">{num(g.sd, locale)}</td>
              <td className="py-1 pr-3 text-right tabular-nums">
                {g.ci95 ? `${num(g.ci95[0], locale)} – ${num(g.ci95[1], locale)}` : '—'}
              </td>
              {nps && <td className="py-1 pr-3 text-right tabular-nums">{num(g.nps ?? null, locale, 1)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function CompareSection({
  pid,
  filters,
  questions,
  languages = [],
}: {
  pid: number;
  filters: ReportFilters;
  questions: ReportQuestion[];
  /** The questionnaire's languages: "Questionnaire language" is a column only when there are several. */
  languages?: string[];
}) {
  const { LL, locale } = useI18nContext();
  const C = LL.compare;
  const search = useSearch();
  const [, navigate] = useLocation();
  const { rows, cols } = compareFromSearch(search);
  const [load, setLoad] = useState<Load>({ state: 'idle' });
  const [downloading, setDownloading] = useState(false);
  const rowsId = useId();
  const colsId = useId();

  const set = (patch: { rows?: string; cols?: string }) =>
    navigate(`/report?${searchWith(window.location.search, patch)}`, { replace: true });

  useEffect(() => {
    if (!rows || !cols) {
      setLoad({ state: 'idle' });
      return;
    }
    const ac = new AbortController();
    setLoad((l) => ({ state: 'loading', data: l.state === 'ready' ? l.data : null }));
    getCrosstab({ pid, rows, cols, filters }, { signal: ac.signal })
      .then((data) => setLoad({ state: 'ready', data }))
      .catch((err: unknown) => {
        if (!ac.signal.aborted) setLoad({ state: 'failed', message: errorMessage(err) });
      });
    return () => ac.abort();
  }, [pid, rows, cols, filters]);

  const rowOptions = questions.flatMap((q) => {
    if (q.category === 'matrix')
      return (q.matrix ?? []).map((s) => ({
        value: `${q.id}:${s.id}`,
        label: C.statementOption({ number: q.number, text: q.text, statement: s.text }),
      }));
    return ROW_CHOICE.includes(q.category) || ROW_NUMERIC.includes(q.category)
      ? [{ value: q.id, label: C.questionOption({ number: q.number, text: q.text }) }]
      : [];
  });
  const colQuestions = questions.filter((q) => COL_CHOICE.includes(q.category));

  const data = load.state === 'ready' || load.state === 'loading' ? load.data : null;
  const caption = data
    ? C.table.caption({
        rows: data.rowsOf.statement ? `${data.rowsOf.text}: ${data.rowsOf.statement.text}` : data.rowsOf.text,
        cols: data.colsOf.text,
      })
    : '';
  const chart = useMemo<GroupedBars | null>(
    () =>
      data && data.rows.length > 0 && data.cols.length > 0
        ? {
            groups: data.rows.map((r) => r.text),
            series: data.cols.map((c, j) => ({
              label: `${c.letter} ${c.text}`,
              values: data.cells.map((r) => r[j].colPercent),
            })),
          }
        : null,
    [data],
  );

  async function download(format: 'xlsx' | 'csv') {
    setDownloading(true);
    try {
      const file = await downloadCrosstab({ pid, rows, cols, filters }, format, locale);
      saveBlob(file.blob, file.fileName);
    } catch (err) {
      notify.error(`${C.downloadFailed()}: ${errorMessage(err)}`);
    } finally {
      setDownloading(false);
    }
  }

  return (
    <section
      aria-labelledby="report-compare"
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4"
      aria-busy={load.state === 'loading'}
      data-compare
    >
      <h2 id="report-compare" className="text-base font-semibold text-slate-800">
        {C.title()}
      </h2>
      <p className="text-sm text-slate-600">{C.intro()}</p>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor={rowsId} className="text-sm font-medium text-slate-700">
            {C.rows()}
          </label>
          <select
            id={rowsId}
            className={CONTROL}
            value={rows}
            onChange={(e) => set({ rows: e.target.value })}
          >
            <option value="">{C.choose()}</option>
            {rowOptions.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor={colsId} className="text-sm font-medium text-slate-700">
            {C.cols()}
          </label>
          <select
            id={colsId}
            className={CONTROL}
            value={cols}
            onChange={(e) => set({ cols: e.target.value })}
          >
            <option value="">{C.choose()}</option>
            <optgroup label={C.attributesGroup()}>
              {CROSSTAB_ATTRIBUTES.filter((a) => a !== 'language' || languages.length > 1).map((a) => (
                <option key={a} value={a}>
                  {C.attributes[a]()}
                </option>
              ))}
            </optgroup>
            {colQuestions.length > 0 && (
              <optgroup label={C.questionsGroup()}>
                {colQuestions.map((q) => (
                  <option key={q.id} value={q.id}>
                    {C.questionOption({ number: q.number, text: q.text })}
                  </option>
                ))}
              </optgroup>
            )}
          </select>
        </div>
      </div>

      {load.state === 'loading' && (
        <p role="status" className="text-sm text-slate-600">
          {C.loading()}
        </p>
      )}
      {load.state === 'failed' && (
        <p role="alert" className="text-sm text-red-800">
          {load.message}
        </p>
      )}
      {data &&
        (data.totals.all === 0 ? (
          <p className="text-sm text-slate-700">{C.empty()}</p>
        ) : (
          <>
            <Findings x={data} />
            {data.rows.length > 0 && <CrosstabTable x={data} caption={caption} />}
            {chart && (
              <Suspense fallback={<div style={{ height: COMPARE_CHART_HEIGHT }} />}>
                <CompareChart
                  spec={chart}
                  label={C.chart({
                    rows: data.rowsOf.statement?.text ?? data.rowsOf.text,
                    cols: data.colsOf.text,
                  })}
                />
              </Suspense>
            )}
            {data.numbers && <NumbersTable x={data} />}
            <div className="flex flex-wrap gap-2">
              <Button variant="secondary" disabled={downloading} onClick={() => void download('xlsx')}>
                {C.downloadXlsx()}
              </Button>
              <Button variant="secondary" disabled={downloading} onClick={() => void download('csv')}>
                {C.downloadCsv()}
              </Button>
            </div>
          </>
        ))}
    </section>
  );
}
