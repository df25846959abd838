import { useMemo, type ReactNode } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import type { ReportQuestion } from '../../domain/reports';
import { chartOf, isEmptyChart } from './charts';
import { Chart } from './Chart';
import { TextList, type TextQuery } from './TextList';
import { ReportTable } from './ReportTable';
import { formatNumber } from '../ui/formatNumber';

// One question of the report: its chart and, beside it (below on a phone), a table with the same
// numbers, which is what screen readers and anyone copying numbers read. Open questions have a
// paged, searchable list of texts instead of a chart; choice questions list their "Other" texts below.

const num = (n: number | null, locale: string) => (n === null ? '—' : formatNumber(n, locale));

function NumbersTable({ q, caption }: { q: ReportQuestion; caption: string }) {
  const { LL, locale } = useI18nContext();
  const P = LL.reports.page;
  const T = LL.reports.table;
  if (q.answers) {
    const rows = q.answers.map((a) => [a.text, num(a.count, locale), num(a.percent, locale)]);
    if (q.other)
      rows.push([LL.reports.file.other(), num(q.other.count, locale), num(q.other.percent, locale)]);
    return <ReportTable caption={caption} head={[T.answer(), T.count(), T.percent()]} rows={rows} />;
  }
  if (q.matrix) {
    const columns = q.matrix[0]?.cells ?? [];
    return (
      <ReportTable
        caption={caption}
        head={[T.statement(), ...columns.map((c) => c.text)]}
        rows={q.matrix.map((s) => [
          s.text,
          ...s.cells.map((c) => `${num(c.count, locale)} (${num(c.percent, locale)}%)`),
        ])}
      />
    );
  }
  if (q.ranks) {
    return (
      <ReportTable
        caption={caption}
        head={[T.answer(), T.meanRank(), T.count()]}
        rows={q.ranks.map((r) => [r.text, num(r.meanRank, locale), num(r.count, locale)])}
      />
    );
  }
  if (q.numbers) {
    const n = q.numbers;
    const summary: ReactNode[][] = [
      [T.mean(), num(n.mean, locale)],
      [T.median(), num(n.median, locale)],
    ];
    if (q.nps)
      summary.push(
        [T.npsScore(), num(q.nps.score, locale)],
        [T.promoters(), `${num(q.nps.promoters, locale)}%`],
        [T.passives(), `${num(q.nps.passives, locale)}%`],
        [T.detractors(), `${num(q.nps.detractors, locale)}%`],
      );
    return (
      <div className="flex flex-col gap-3">
        {/* Two tables, two regions: each needs a name of its own (axe: landmark-unique). */}
        <ReportTable
          caption={P.summaryOf({ number: q.number })}
          head={[T.measure(), T.value()]}
          rows={summary}
        />
        <ReportTable
          caption={P.distributionOf({ number: q.number })}
          head={[T.value(), T.count()]}
          rows={n.distribution.map((d) => [num(d.value, locale), num(d.count, locale)])}
        />
      </div>
    );
  }
  if (q.places) {
    return (
      <ReportTable
        caption={caption}
        head={[T.place(), T.count(), T.percent()]}
        rows={q.places.map((p) => [p.name, num(p.count, locale), num(p.percent, locale)])}
      />
    );
  }
  return null;
}

export function QuestionCard({
  q,
  search,
  onTexts,
}: {
  q: ReportQuestion;
  /** The text search this question's written answers were read with ('' for none). */
  search: string;
  onTexts: (query: TextQuery) => void;
}) {
  const { LL, locale } = useI18nContext();
  const P = LL.reports.page;
  const spec = useMemo(
    () =>
      chartOf(q, {
        count: LL.reports.table.count(),
        other: LL.reports.file.other(),
        meanRank: LL.reports.table.meanRank(),
        detractors: LL.reports.table.detractors(),
        passives: LL.reports.table.passives(),
        promoters: LL.reports.table.promoters(),
      }),
    [q, LL],
  );
  const headingId = `q-${q.id}`;
  return (
    <article
      aria-labelledby={headingId}
      className="rounded-lg border border-slate-200 bg-white p-4"
      data-question={q.id}
    >
      <header className="mb-3">
        <p className="text-xs font-medium uppercase tracking-wide text-slate-600">
          {P.question({ number: q.number })} · {LL.common.categories[q.category]()}
        </p>
        <h2 id={headingId} className="text-lg font-semibold break-words text-slate-800">
          {q.text || '—'}
        </h2>
        <p className="text-sm text-slate-600" data-answered={q.answered}>
          {P.answered({ count: formatNumber(q.answered, locale) })}
        </p>
      </header>
      {q.open ? (
        <TextList
          list={q.open}
          search={search}
          onQuery={onTexts}
          name={LL.reports.texts.searchOf({ number: q.number })}
        />
      ) : (
        <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          {spec && !isEmptyChart(spec) ? (
            <Chart spec={spec} label={P.chartOf({ number: q.number, text: q.text })} />
          ) : (
            <p className="text-sm text-slate-600">{P.openEmpty()}</p>
          )}
          <NumbersTable q={q} caption={P.tableOf({ number: q.number })} />
        </div>
      )}
      {q.other?.texts && (
        <div className="mt-4 border-t border-slate-100 pt-3">
          <TextList
            list={q.other.texts}
            search={search}
            onQuery={onTexts}
            title={LL.reports.texts.otherTitle()}
            name={LL.reports.texts.searchOtherOf({ number: q.number })}
          />
        </div>
      )}
    </article>
  );
}
