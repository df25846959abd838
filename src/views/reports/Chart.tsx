import { useEffect, useRef } from 'react';
import type { ChartSpec } from './charts';
import { CHART_HEIGHT } from './chartHeight';
import { useShown } from './whenShown';

// One question's chart, drawn by uPlot (chosen for size and speed: docs/decisions/reports.md). uPlot
// is its own chunk (plot.ts), loaded with the first chart, so the page shows its tables and filters
// before it (issue 25); the box keeps the chart's height meanwhile. The canvas is an image named by
// `label`; the table beside it carries the same numbers for everyone who does not see it. Width
// follows the container (360 px phones included).

export function Chart({ spec, label }: { spec: ChartSpec; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  // Drawn when its box comes near the viewport (whenShown.ts): most charts are below the fold.
  const shown = useShown(box);
  useEffect(() => {
    const el = box.current;
    if (!el || !shown) return;
    let done = false;
    let cleanUp = () => {};
    void import('./plot').then(({ drawChart }) => {
      if (!done) cleanUp = drawChart(spec, el);
    });
    return () => {
      done = true;
      cleanUp();
    };
  }, [spec, shown]);
  return (
    <figure className="m-0 min-w-0">
      <div
        ref={box}
        role="img"
        aria-label={label}
        className="w-full overflow-hidden"
        style={{ minHeight: CHART_HEIGHT }}
        data-chart={spec.kind}
      />
      {spec.legend && (
        <figcaption className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700">
          {spec.legend.map((l) => (
            <span key={l.label} className="inline-flex items-center gap-1">
              <span
                aria-hidden="true"
                className="inline-block h-3 w-3 rounded-sm"
                style={{ background: l.color }}
              />
              {l.label}
            </span>
          ))}
        </figcaption>
      )}
    </figure>
  );
}
