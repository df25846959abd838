import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { AXIS, followWidth, widthOf } from './uplotKit';
import { xSteps, type ChartSpec } from './charts';
import { CHART_HEIGHT as HEIGHT } from './chartHeight';

// uPlot and what draws with it, in a chunk of its own (issue 25): the report's tables, filters and
// numbers show before the chart library has arrived; Chart.tsx loads this module when it first
// draws.

function shorten(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function optionsOf(spec: ChartSpec, width: number): uPlot.Options {
  const categorical = spec.labels !== undefined;
  const bars = uPlot.paths.bars!({ size: [spec.kind === 'histogram' ? 0.9 : 0.6, 64], align: 0 });
  const n = spec.x.length;
  const xMin = categorical ? -0.5 : Math.min(...spec.x) - 0.5;
  const xMax = categorical ? n - 0.5 : Math.max(...spec.x) + 0.5;
  // Room for a label under each bar; when they would collide they slant, and long texts are cut
  // (the table beside has them whole).
  const perBar = (width - 70) / Math.max(n, 1);
  const slant = categorical && perBar < 90;
  const maxChars = slant ? 14 : Math.max(4, Math.floor(perBar / 8));
  const yMax = Math.max(0, ...spec.series.flatMap((s) => s.values.map((v) => v ?? 0)));
  const ySize = 16 + 8 * Math.max(1, Math.round(yMax * 1.1).toLocaleString().length);
  return {
    width,
    height: HEIGHT,
    legend: { show: false },
    cursor: { show: false },
    scales: {
      x: { time: false, range: [xMin, xMax] },
      y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
    },
    axes: [
      {
        ...AXIS,
        grid: { show: false },
        rotate: slant ? 40 : 0,
        size: slant ? 84 : 40,
        splits: categorical || spec.kind === 'nps' ? () => spec.x : undefined,
        incrs: xSteps(spec),
        values: categorical
          ? (_u, splits) => splits.map((i) => shorten(spec.labels![i] ?? '', maxChars))
          : undefined,
      },
      { ...AXIS, size: ySize },
    ],
    series: [
      {},
      ...spec.series.map((s) => ({
        label: s.label,
        stroke: s.color,
        fill: s.color,
        width: 0,
        paths: bars,
        points: { show: false },
      })),
    ],
  };
}

/** Draws the chart into `el`, following its width; answers the clean-up. */
export function drawChart(spec: ChartSpec, el: HTMLElement): () => void {
  const width = widthOf(el);
  const data = [spec.x, ...spec.series.map((s) => s.values)] as uPlot.AlignedData;
  const plot = new uPlot(optionsOf(spec, width), data, el);
  return followWidth(plot, el, HEIGHT);
}
