import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { AXIS, followWidth, widthOf } from '../reports/uplotKit';
import type { GameDayStats } from '../../domain/players';

// A game's numbers per day as lines, drawn by uPlot as the report's charts are (docs/decisions/
// reports.md). Loaded lazily by GameStatsPanel, so /games downloads uPlot only when a game's numbers
// are opened. The canvas is an image named by `label`; the table under it has the same numbers.

export interface StatsSeries {
  key: keyof Omit<GameDayStats, 'date'>;
  label: string;
  color: string;
}

const HEIGHT = 220;
const WHOLE_STEPS = [1, 2, 5]
  .flatMap((m) => [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000].map((p) => m * p))
  .sort((a, b) => a - b);

export default function StatsChart({
  days,
  series,
  label,
}: {
  days: GameDayStats[];
  series: StatsSeries[];
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = widthOf(el);
    // uPlot's time scale counts seconds; the days are UTC.
    const x = days.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
    const data = [x, ...series.map((s) => days.map((d) => d[s.key]))] as uPlot.AlignedData;
    const yMax = Math.max(1, ...series.flatMap((s) => days.map((d) => d[s.key])));
    const plot = new uPlot(
      {
        width,
        height: HEIGHT,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'UTC'),
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: true }, y: { range: () => [0, Math.ceil(yMax * 1.1)] } },
        axes: [
          { ...AXIS, grid: { show: false } },
          {
            ...AXIS,
            // Whole numbers only: these are counts of people.
            incrs: WHOLE_STEPS,
            size: 24 + 8 * Math.ceil(yMax * 1.1).toLocaleString().length,
            values: (_u, splits) => splits.map((v) => v.toLocaleString()),
          },
        ],
        series: [
          {},
          ...series.map((s) => ({
            label: s.label,
            stroke: s.color,
            width: 2,
            points: { show: days.length <= 62, size: 5, fill: s.color },
          })),
        ],
      },
      data,
      el,
    );
    return followWidth(plot, el, HEIGHT);
  }, [days, series]);
  return (
    <figure className="m-0 min-w-0">
      <div
        ref={box}
        role="img"
        aria-label={label}
        className="w-full overflow-hidden"
        data-chart="game-stats"
      />
      <figcaption className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700">
        {series.map((s) => (
          <span key={s.key} className="inline-flex items-center gap-1">
            <span
              aria-hidden="true"
              className="inline-block h-1 w-4 rounded-sm"
              style={{ background: s.color }}
            />
            {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
