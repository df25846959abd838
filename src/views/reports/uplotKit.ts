import type uPlot from 'uplot';

// What every uPlot chart of the app shares (the report's cards, its timeline and crosstab, a game's
// numbers): the axis style, and a chart that follows its box's width until it is taken down. Only
// the chart modules import this, so it travels in the chart library's lazy chunk.

export const AXIS = {
  stroke: '#334155',
  grid: { stroke: '#e2e8f0', width: 1 },
  ticks: { stroke: '#cbd5e1', width: 1 },
};

/** The width a chart is drawn at in `el` (never under 240 px). */
export const widthOf = (el: HTMLElement) => Math.max(240, el.clientWidth);

/** Resizes `plot` with its box; the returned function stops that and destroys the chart. */
export function followWidth(plot: uPlot, el: HTMLElement, height: number): () => void {
  const resize = new ResizeObserver(() => {
    const w = widthOf(el);
    if (Math.abs(w - plot.width) > 2) plot.setSize({ width: w, height });
  });
  resize.observe(el);
  return () => {
    resize.disconnect();
    plot.destroy();
  };
}
