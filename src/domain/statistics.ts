import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import fCdf from '@stdlib/stats-base-dists-f-cdf';
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';

// The statistics of a crosstab (issue 23): Pearson's chi-square with its share of small expected
// counts, the column-proportion z-tests SPSS's CROSSTABS offers (pooled, Bonferroni per row),
// per-group means with t-based intervals, Welch's t and one-way ANOVA. Pure: counts in, numbers out.
// The distribution functions are stdlib's (docs/decisions/reports.md), never written here; the
// figures are checked against PSPP in tests/server/crosstab-pspp.test.ts.

import { ALPHA } from './crosstab';

export { ALPHA };

export interface ChiSquare {
  kind: 'chi-square';
  statistic: number;
  df: number;
  p: number;
  /** Share (0–1) of the expected counts under 5. */
  lowExpected: number;
}

/**
 * Pearson's chi-square of a table of counts. Rows and columns whose total is 0 are left out, as
 * SPSS and PSPP do; with fewer than two of either there is nothing to test (null).
 */
export function chiSquare(table: number[][]): ChiSquare | null {
  const rowSums = table.map((r) => r.reduce((s, x) => s + x, 0));
  const width = table[0]?.length ?? 0;
  const colSums = Array.from({ length: width }, (_, j) => table.reduce((s, r) => s + r[j], 0));
  const rows = rowSums.map((s, i) => (s > 0 ? i : -1)).filter((i) => i >= 0);
  const cols = colSums.map((s, j) => (s > 0 ? j : -1)).filter((j) => j >= 0);
  if (rows.length < 2 || cols.length < 2) return null;
  const n = rows.reduce((s, i) => s + rowSums[i], 0);
  let statistic = 0;
  let low = 0;
  for (const i of rows)
    for (const j of cols) {
      const expected = (rowSums[i] * colSums[j]) / n;
      statistic += (table[i][j] - expected) ** 2 / expected;
      if (expected < 5) low++;
    }
  const df = (rows.length - 1) * (cols.length - 1);
  return {
    kind: 'chi-square',
    statistic,
    df,
    p: upper(1 - chisquareCdf(statistic, df)),
    lowExpected: low / (rows.length * cols.length),
  };
}

/** An upper tail computed as 1 − cdf can come out a hair below 0. */
const upper = (p: number) => Math.min(1, Math.max(0, p));

/** Two-sided p of a standard normal z. */
export function normalP(z: number): number {
  return upper(2 * normalCdf(-Math.abs(z), 0, 1));
}

export interface PairComparison {
  /** Column indices: `larger` has the significantly larger proportion. */
  larger: number;
  smaller: number;
  /** Bonferroni-adjusted p. */
  p: number;
}

/**
 * SPSS's "compare column proportions" for one row: for each pair of columns, the two-proportion
 * z-test with the pooled proportion; p-values multiplied by the number of pairs compared in the row
 * (Bonferroni, capped at 1). A column whose proportion is 0 or 1, or whose base is 0, takes no part
 * (SPSS marks it "not used in comparisons"), so the pairs counted are those among the others.
 * Returns the significant pairs at α = 0.05.
 */
export function compareColumnProportions(counts: number[], bases: number[]): PairComparison[] {
  const used = counts.map((_, j) => j).filter((j) => bases[j] > 0 && counts[j] > 0 && counts[j] < bases[j]);
  const pairs = (used.length * (used.length - 1)) / 2;
  const out: PairComparison[] = [];
  for (let a = 0; a < used.length; a++)
    for (let b = a + 1; b < used.length; b++) {
      const j = used[a];
      const k = used[b];
      const raw = twoProportionP(counts[j], bases[j], counts[k], bases[k]);
      if (raw === null) continue;
      const p = Math.min(1, raw * pairs);
      const larger = counts[j] / bases[j] > counts[k] / bases[k];
      if (p < ALPHA) out.push(larger ? { larger: j, smaller: k, p } : { larger: k, smaller: j, p });
    }
  return out;
}

/** Two-sided p of the pooled two-proportion z-test of c1 of n1 against c2 of n2 (null: no spread). */
export function twoProportionP(c1: number, n1: number, c2: number, n2: number): number | null {
  const pooled = (c1 + c2) / (n1 + n2);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  if (!(se > 0)) return null;
  return normalP((c1 / n1 - c2 / n2) / se);
}

/** The spread of one group's values, from its count, sum and sum of squared deviations. */
export interface GroupNumbers {
  n: number;
  mean: number | null;
  /** Sample standard deviation (n − 1). */
  sd: number | null;
  /** t-based 95 % interval of the mean. */
  ci95: [number, number] | null;
}

/** Moments of one group: n, mean and the sum of squared deviations from the mean. */
export interface Moments {
  n: number;
  mean: number;
  ss: number;
}

/** Moments of a distribution of values (value, count), in two passes for accuracy. */
export function momentsOf(distribution: { value: number; count: number }[]): Moments {
  const n = distribution.reduce((s, d) => s + d.count, 0);
  if (n === 0) return { n: 0, mean: 0, ss: 0 };
  const mean = distribution.reduce((s, d) => s + d.value * d.count, 0) / n;
  const ss = distribution.reduce((s, d) => s + d.count * (d.value - mean) ** 2, 0);
  return { n, mean, ss };
}

/**
 * Moments from the sums the database gives (count, Σ(x − shift), Σ(x − shift)²): the shift (a value
 * near the data, such as the scale's middle) keeps the subtraction from cancelling digits.
 */
export function momentsOfSums(n: number, sum: number, sumSquares: number, shift: number): Moments {
  if (n === 0) return { n: 0, mean: 0, ss: 0 };
  const m = sum / n;
  return { n, mean: m + shift, ss: Math.max(0, sumSquares - sum * m) };
}

/** Moments of two or more groups together. */
export function pooledMoments(groups: Moments[]): Moments {
  const n = groups.reduce((s, g) => s + g.n, 0);
  if (n === 0) return { n: 0, mean: 0, ss: 0 };
  const mean = groups.reduce((s, g) => s + g.mean * g.n, 0) / n;
  const ss = groups.reduce((s, g) => s + g.ss + g.n * (g.mean - mean) ** 2, 0);
  return { n, mean, ss };
}

export function groupNumbers(m: Moments): GroupNumbers {
  if (m.n === 0) return { n: 0, mean: null, sd: null, ci95: null };
  if (m.n === 1) return { n: 1, mean: m.mean, sd: null, ci95: null };
  const sd = Math.sqrt(m.ss / (m.n - 1));
  const half = tQuantile(0.975, m.n - 1) * (sd / Math.sqrt(m.n));
  return { n: m.n, mean: m.mean, sd, ci95: [m.mean - half, m.mean + half] };
}

export interface WelchT {
  kind: 'welch-t';
  statistic: number;
  df: number;
  p: number;
}

/** Welch's t-test of two groups' means (unequal variances), p two-sided. */
export function welchT(a: Moments, b: Moments): WelchT | null {
  if (a.n < 2 || b.n < 2) return null;
  const va = a.ss / (a.n - 1) / a.n;
  const vb = b.ss / (b.n - 1) / b.n;
  const se2 = va + vb;
  if (!(se2 > 0)) return null;
  const statistic = (a.mean - b.mean) / Math.sqrt(se2);
  const df = se2 ** 2 / (va ** 2 / (a.n - 1) + vb ** 2 / (b.n - 1));
  return { kind: 'welch-t', statistic, df, p: upper(2 * tCdf(-Math.abs(statistic), df)) };
}

export interface Anova {
  kind: 'anova';
  statistic: number;
  df1: number;
  df2: number;
  p: number;
}

/** One-way ANOVA of the groups' means; groups without values are left out. */
export function anova(groups: Moments[]): Anova | null {
  const used = groups.filter((g) => g.n > 0);
  const all = pooledMoments(used);
  const df1 = used.length - 1;
  const df2 = all.n - used.length;
  if (df1 < 1 || df2 < 1) return null;
  const within = used.reduce((s, g) => s + g.ss, 0);
  const between = used.reduce((s, g) => s + g.n * (g.mean - all.mean) ** 2, 0);
  if (!(within > 0)) return null;
  const statistic = between / df1 / (within / df2);
  return { kind: 'anova', statistic, df1, df2, p: upper(1 - fCdf(statistic, df1, df2)) };
}

/** NPS of a distribution of 0–10 scores: % promoters (9–10) − % detractors (0–6). */
export function npsScore(distribution: { value: number; count: number }[]): number | null {
  const n = distribution.reduce((s, d) => s + d.count, 0);
  if (n === 0) return null;
  const share = (pred: (v: number) => boolean) =>
    (distribution.reduce((s, d) => (pred(d.value) ? s + d.count : s), 0) * 100) / n;
  return share((v) => v >= 9) - share((v) => v <= 6);
}
