import type { ReportQuestion } from '../../domain/reports';

// What each question's chart draws, as plain data (the page draws it with uPlot, Chart.tsx): bars
// for choices, places and ranks, stacked bars for the matrix, a histogram for numbers, and the NPS
// split in its three colours. Pure, so the table beside a chart is built from the same numbers.

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color: string;
}

export interface ChartSpec {
  kind: 'bars' | 'stacked' | 'histogram' | 'nps' | 'rank';
  /** Positions on the x axis: indices of `labels`, or the values themselves for numbers. */
  x: number[];
  /** Category names under the bars (absent when x is numeric). */
  labels?: string[];
  /** Drawn in this order; for `stacked`, each series is the running total up to its column. */
  series: ChartSeries[];
  /** The legend, in reading order (stacked and nps). */
  legend?: { label: string; color: string }[];
}

/** Tick steps of a numeric axis whose values are whole numbers. */
const WHOLE_STEPS = [
  1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 1e6, 1e7,
  1e8, 1e9,
];

/**
 * The x axis's tick steps when every value on it is a whole number (stars, a scale's points):
 * uPlot's own steps include halves, and five stars read 0.5, 1.5 … 5.5 under bars at 1 … 5.
 * Undefined (uPlot's own) for categories and for values with fractions.
 */
export function xSteps(spec: ChartSpec): number[] | undefined {
  return spec.labels === undefined && spec.x.every(Number.isInteger) ? WHOLE_STEPS : undefined;
}

/** Colour-blind-safe, and dark enough on white for the legend's 3:1 contrast. */
export const PALETTE = [
  '#4f46e5',
  '#0891b2',
  '#d97706',
  '#be185d',
  '#15803d',
  '#7c3aed',
  '#b91c1c',
  '#475569',
];
export const NPS_COLORS = { detractors: '#dc2626', passives: '#ca8a04', promoters: '#16a34a' };

export interface ChartTexts {
  count: string;
  other: string;
  meanRank: string;
  detractors: string;
  passives: string;
  promoters: string;
}

const MAX_PLACES = 12;

export function chartOf(q: ReportQuestion, t: ChartTexts): ChartSpec | null {
  if (q.answers) {
    const labels = q.answers.map((a) => a.text);
    const values = q.answers.map((a) => a.count);
    if (q.other) {
      labels.push(t.other);
      values.push(q.other.count);
    }
    return {
      kind: 'bars',
      x: labels.map((_, i) => i),
      labels,
      series: [{ label: t.count, values, color: PALETTE[0] }],
    };
  }
  if (q.matrix) {
    const columns = q.matrix[0]?.cells ?? [];
    const legend = columns.map((c, i) => ({ label: c.text, color: PALETTE[i % PALETTE.length] }));
    // Running totals drawn tallest first, so each shorter bar covers the one before: a stack.
    const series = columns
      .map((c, j) => ({
        label: c.text,
        color: legend[j].color,
        values: q.matrix!.map((s) => s.cells.slice(0, j + 1).reduce((sum, x) => sum + x.count, 0)),
      }))
      .reverse();
    return {
      kind: 'stacked',
      x: q.matrix.map((_, i) => i),
      labels: q.matrix.map((s) => s.text),
      series,
      legend,
    };
  }
  if (q.ranks) {
    return {
      kind: 'rank',
      x: q.ranks.map((_, i) => i),
      labels: q.ranks.map((r) => r.text),
      series: [{ label: t.meanRank, values: q.ranks.map((r) => r.meanRank), color: PALETTE[1] }],
    };
  }
  if (q.nps && q.numbers) {
    const x = Array.from({ length: 11 }, (_, i) => i);
    const countAt = (v: number) => q.numbers!.distribution.find((d) => d.value === v)?.count ?? 0;
    const part = (from: number, to: number) => x.map((v) => (v >= from && v <= to ? countAt(v) : null));
    const series = [
      { label: t.detractors, values: part(0, 6), color: NPS_COLORS.detractors },
      { label: t.passives, values: part(7, 8), color: NPS_COLORS.passives },
      { label: t.promoters, values: part(9, 10), color: NPS_COLORS.promoters },
    ];
    return { kind: 'nps', x, series, legend: series.map(({ label, color }) => ({ label, color })) };
  }
  if (q.numbers) {
    const d = q.numbers.distribution;
    return {
      kind: 'histogram',
      x: d.map((p) => p.value),
      series: [{ label: t.count, values: d.map((p) => p.count), color: PALETTE[0] }],
    };
  }
  if (q.places) {
    const top = q.places.slice(0, MAX_PLACES);
    return {
      kind: 'bars',
      x: top.map((_, i) => i),
      labels: top.map((p) => p.name),
      series: [{ label: t.count, values: top.map((p) => p.count), color: PALETTE[4] }],
    };
  }
  return null;
}

/** Whether a chart has anything to draw. */
export function isEmptyChart(spec: ChartSpec): boolean {
  return spec.x.length === 0 || spec.series.every((s) => s.values.every((v) => !v));
}
