import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { AXIS, followWidth, widthOf } from './uplotKit';
import type { ReportJson } from '../../domain/reports';
import { PALETTE } from './charts';
import { CHART_HEIGHT as HEIGHT } from './chartHeight';
import { useShown } from './whenShown';

// The timeline's chart, in the chart library's chunk (issue 25): DropOff loads it lazily, so the
// report's numbers and tables show before uPlot has arrived.

/** Starts and completions per day as two lines (uPlot), the days as x labels. */
export default function DaysChart({
  days,
  label,
  names,
}: {
  days: ReportJson['timeline'];
  label: string;
  names: [string, string];
}) {
  const box = useRef<HTMLDivElement>(null);
  const shown = useShown(box);
  useEffect(() => {
    const el = box.current;
    if (!el || !shown || days.length === 0) return;
    const x = days.map((_, i) => i);
    const opts = (width: number): uPlot.Options => ({
      width,
      height: HEIGHT,
      legend: { show: false },
      cursor: { show: false },
      scales: {
        x: { time: false, range: [-0.5, Math.max(0.5, days.length - 0.5)] },
        y: { range: (_u, _a, max) => [0, max > 0 ? max * 1.1 : 1] },
      },
      axes: [
        {
          ...AXIS,
          grid: { show: false },
          rotate: 40,
          size: 70,
          splits: () =>
            x.filter(
              (i) => i % Math.max(1, Math.ceil(days.length / Math.max(1, Math.floor(width / 60)))) === 0,
            ),
          values: (_u, splits) => splits.map((i) => days[i]?.day.slice(5) ?? ''),
        },
        { ...AXIS, size: 50 },
      ],
      series: [
        {},
        { label: names[0], stroke: PALETTE[0], width: 2, points: { show: days.length < 40 } },
        { label: names[1], stroke: PALETTE[4], width: 2, points: { show: days.length < 40 } },
      ],
    });
    const plot = new uPlot(
      opts(widthOf(el)),
      [x, days.map((d) => d.started), days.map((d) => d.completed)],
      el,
    );
    return followWidth(plot, el, HEIGHT);
  }, [days, names, shown]);
  return (
    <figure className="m-0 min-w-0">
      <div
        ref={box}
        role="img"
        aria-label={label}
        className="w-full overflow-hidden"
        style={{ minHeight: HEIGHT }}
        data-chart="timeline"
      />
      <figcaption className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700">
        {names.map((n, i) => (
          <span key={n} className="inline-flex items-center gap-1">
            <span
              aria-hidden="true"
              className="inline-block h-1 w-4 rounded-sm"
              style={{ background: PALETTE[i === 0 ? 0 : 4] }}
            />
            {n}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
