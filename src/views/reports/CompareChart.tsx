import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { AXIS, followWidth, widthOf } from './uplotKit';
import { PALETTE } from './charts';
import { COMPARE_CHART_HEIGHT as HEIGHT } from './chartHeight';

// The crosstab's grouped bar chart (issue 23), drawn by uPlot as the questions' charts are
// (Chart.tsx). uPlot draws one bar per x position and series, so the groups are laid out on the x
// axis by hand: row i's bar of column j stands at i·(k + 1) + j, with a gap of one bar between
// groups, and each series has values only at its own positions. The canvas is an image named by
// `label`; the table beside it has the same numbers.

export interface GroupedBars {
  /** The groups under the x axis (the crosstab's rows). */
  groups: string[];
  /** One series per column: its values per group (column %). */
  series: { label: string; values: number[] }[];
}

const shorten = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

function layout(spec: GroupedBars): uPlot.AlignedData {
  const k = spec.series.length;
  const n = spec.groups.length * (k + 1);
  const x = Array.from({ length: n }, (_, i) => i);
  const ys = spec.series.map((s, j) =>
    x.map((pos) => (pos % (k + 1) === j ? (s.values[Math.floor(pos / (k + 1))] ?? null) : null)),
  );
  return [x, ...ys] as uPlot.AlignedData;
}

function optionsOf(spec: GroupedBars, width: number): uPlot.Options {
  const k = spec.series.length;
  const centers = spec.groups.map((_, i) => i * (k + 1) + (k - 1) / 2);
  const perGroup = (width - 60) / Math.max(spec.groups.length, 1);
  const slant = perGroup < 90;
  const maxChars = slant ? 14 : Math.max(4, Math.floor(perGroup / 8));
  const bars = uPlot.paths.bars!({ size: [0.92, 64], align: 0 });
  return {
    width,
    height: HEIGHT,
    legend: { show: false },
    cursor: { show: false },
    scales: {
      x: { time: false, range: [-0.7, spec.groups.length * (k + 1) - 1 + 0.7 - 1] },
      y: { range: (_u, _min, max) => [0, Math.max(10, Math.min(100, max * 1.1))] },
    },
    axes: [
      {
        ...AXIS,
        grid: { show: false },
        rotate: slant ? 40 : 0,
        size: slant ? 84 : 40,
        splits: () => centers,
        values: (_u, splits) =>
          splits.map((pos) =>
            shorten(spec.groups[Math.round((pos - (k - 1) / 2) / (k + 1))] ?? '', maxChars),
          ),
      },
      { ...AXIS, size: 44, values: (_u, splits) => splits.map((v) => `${v} %`) },
    ],
    series: [
      {},
      ...spec.series.map((s, j) => ({
        label: s.label,
        stroke: PALETTE[j % PALETTE.length],
        fill: PALETTE[j % PALETTE.length],
        width: 0,
        paths: bars,
        points: { show: false },
      })),
    ],
  };
}

export function CompareChart({ spec, label }: { spec: GroupedBars; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = widthOf(el);
    const plot = new uPlot(optionsOf(spec, width), layout(spec), el);
    return followWidth(plot, el, HEIGHT);
  }, [spec]);
  return (
    <figure className="m-0 min-w-0">
      <div ref={box} role="img" aria-label={label} className="w-full overflow-hidden" data-chart="grouped" />
      <figcaption className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700">
        {spec.series.map((s, j) => (
          <span key={s.label + j} className="inline-flex items-center gap-1">
            <span
              aria-hidden="true"
              className="inline-block h-3 w-3 rounded-sm"
              style={{ background: PALETTE[j % PALETTE.length] }}
            />
            {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
