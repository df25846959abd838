import { useI18nContext } from '../../i18n/i18n-react';
import { PRICE_COMPONENTS, type PriceBreakdown } from '../../domain/price';
import { formatMoney } from './formErrors';

// One computed price: the total, a bar per component (plain SVG, so a person sees at a glance what
// the money is for), and the same numbers as a table, which is also the chart's text alternative.
// The editor shows a real project's price with this same view.

const BAR_COLORS = ['#6366f1', '#0ea5e9', '#14b8a6', '#f59e0b', '#ec4899', '#8b5cf6', '#64748b'];

export function PriceBreakdownView({
  title,
  price,
  discountPercent,
  vkPercent,
  testId,
}: {
  title: string;
  price: PriceBreakdown;
  discountPercent: number;
  vkPercent: number;
  testId?: string;
}) {
  const { LL, locale } = useI18nContext();
  const money = (x: number) => formatMoney(locale, x);
  const max = Math.max(...PRICE_COMPONENTS.map((k) => price.components[k]), 1);
  const rowH = 22;
  const labelW = 150;
  const chartW = 420;
  const barMax = chartW - labelW - 10;
  const chartTitle = LL.pricing.estimate.chart({ audience: title });

  return (
    <section
      aria-label={title}
      data-testid={testId}
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <h3 className="font-semibold text-slate-800">{title}</h3>
        <p className="ml-auto flex flex-wrap items-baseline justify-end gap-x-2">
          <span className="text-sm text-slate-600">{LL.pricing.estimate.total()}</span>
          <output
            data-testid={testId && `${testId}-total`}
            className="text-2xl font-semibold tabular-nums text-slate-900"
          >
            {money(price.total)}
          </output>
        </p>
      </div>

      <svg
        role="img"
        aria-label={chartTitle}
        viewBox={`0 0 ${chartW} ${PRICE_COMPONENTS.length * rowH}`}
        className="w-full"
      >
        <title>{chartTitle}</title>
        {PRICE_COMPONENTS.map((k, i) => {
          const w = (price.components[k] / max) * barMax;
          return (
            <g key={k} transform={`translate(0 ${i * rowH})`}>
              <text x={labelW - 6} y={rowH / 2 + 4} textAnchor="end" className="fill-slate-600 text-[11px]">
                {LL.pricing.estimate.components[k]()}
              </text>
              <rect
                x={labelW}
                y={4}
                width={Math.max(w, price.components[k] > 0 ? 2 : 0)}
                height={rowH - 8}
                rx={2}
                fill={BAR_COLORS[i]}
              />
            </g>
          );
        })}
      </svg>

      <table className="w-full text-sm">
        <thead className="sr-only">
          <tr>
            <th scope="col">{LL.pricing.estimate.component()}</th>
            <th scope="col">{LL.pricing.estimate.amount()}</th>
          </tr>
        </thead>
        <tbody>
          {PRICE_COMPONENTS.map((k, i) => (
            <tr key={k}>
              <th scope="row" className="py-0.5 text-left font-normal text-slate-600">
                <span
                  className="mr-2 inline-block h-2.5 w-2.5 rounded-sm"
                  style={{ background: BAR_COLORS[i] }}
                  aria-hidden="true"
                />
                {LL.pricing.estimate.components[k]()}
              </th>
              <td className="py-0.5 text-right tabular-nums">{money(price.components[k])}</td>
            </tr>
          ))}
          <tr className="border-t border-slate-200">
            <th scope="row" className="pt-1 text-left font-medium text-slate-700">
              {LL.pricing.estimate.subtotal()}
            </th>
            <td className="pt-1 text-right tabular-nums">{money(price.subtotal)}</td>
          </tr>
          <tr>
            <th scope="row" className="text-left font-normal text-slate-600">
              {LL.pricing.estimate.discount({ percent: discountPercent })}
            </th>
            <td className="text-right tabular-nums">−{money(price.discount)}</td>
          </tr>
          <tr>
            <th scope="row" className="text-left font-normal text-slate-600">
              {LL.pricing.estimate.vk({ percent: vkPercent })}
            </th>
            <td className="text-right tabular-nums">+{money(price.vk)}</td>
          </tr>
          <tr className="border-t border-slate-200">
            <th scope="row" className="pt-1 text-left font-semibold text-slate-800">
              {LL.pricing.estimate.total()}
            </th>
            <td className="pt-1 text-right font-semibold tabular-nums">{money(price.total)}</td>
          </tr>
        </tbody>
      </table>
    </section>
  );
}
