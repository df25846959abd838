import { expect, it } from 'vitest';
import { xSteps, type ChartSpec } from '../../src/views/reports/charts';

// A star rating's histogram had ticks at 0.5, 1.5 … 5.5 under bars at 1 … 5 (uPlot's own steps
// include halves): an axis of whole numbers steps by whole numbers.
const spec = (x: number[], labels?: string[]): ChartSpec => ({ kind: 'histogram', x, labels, series: [] });

it('steps a whole-number axis by whole numbers only', () => {
  const steps = xSteps(spec([1, 2, 3, 4, 5]))!;
  expect(steps[0]).toBe(1);
  expect(steps.every(Number.isInteger)).toBe(true);
});

it('leaves categories and fractional values to the chart library', () => {
  expect(xSteps(spec([0, 1, 2], ['a', 'b', 'c']))).toBeUndefined();
  expect(xSteps(spec([0.5, 1.5]))).toBeUndefined();
});
