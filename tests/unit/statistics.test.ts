import { describe, expect, it } from 'vitest';
import {
  anova,
  chiSquare,
  compareColumnProportions,
  groupNumbers,
  momentsOf,
  momentsOfSums,
  npsScore,
  pooledMoments,
  welchT,
} from '../../src/domain/statistics';
import { columnLetter } from '../../src/domain/crosstab';

// The crosstab's statistics at their edges (their figures are checked against PSPP in
// tests/server/crosstab-pspp.test.ts): empty rows and columns, proportions of 0 or 1, groups too
// small to test, and the moments from the database's shifted sums.

describe('statistics', () => {
  it('leaves empty rows and columns out of the chi-square, as SPSS and PSPP do', () => {
    const full = chiSquare([
      [10, 20],
      [30, 15],
    ])!;
    const padded = chiSquare([
      [10, 0, 20],
      [0, 0, 0],
      [30, 0, 15],
    ])!;
    expect(padded).toEqual(full);
    expect(full.df).toBe(1);
    expect(chiSquare([[1, 2]])).toBeNull();
    expect(
      chiSquare([
        [1, 0],
        [2, 0],
      ]),
    ).toBeNull();
    expect(
      chiSquare([
        [1, 2],
        [3, 4],
      ])!.lowExpected,
    ).toBe(1);
  });

  it('compares column proportions pairwise, Bonferroni per row, leaving 0 and 1 out', () => {
    // 80 % against 20 % of 100: significant either way.
    expect(compareColumnProportions([80, 20], [100, 100])).toEqual([
      expect.objectContaining({ larger: 0, smaller: 1 }),
    ]);
    // A column whose proportion is 0 or 1 takes no part.
    expect(compareColumnProportions([0, 50], [100, 100])).toEqual([]);
    expect(compareColumnProportions([100, 50], [100, 100])).toEqual([]);
    // Bonferroni: with three columns each p is multiplied by 3.
    const two = compareColumnProportions([70, 40], [200, 200]);
    const three = compareColumnProportions([70, 40, 50], [200, 200, 200]);
    expect(two).toHaveLength(1);
    expect(three.find((c) => c.larger === 0 && c.smaller === 1)!.p).toBeCloseTo(two[0].p * 3, 12);
  });

  it('gives group numbers, Welch’s t and ANOVA only where they are defined', () => {
    const a = momentsOf([
      { value: 1, count: 2 },
      { value: 3, count: 2 },
    ]);
    expect(groupNumbers(a)).toMatchObject({ n: 4, mean: 2 });
    expect(groupNumbers(a).sd).toBeCloseTo(Math.sqrt(4 / 3), 12);
    expect(groupNumbers(momentsOf([{ value: 5, count: 1 }]))).toEqual({
      n: 1,
      mean: 5,
      sd: null,
      ci95: null,
    });
    const one = momentsOf([{ value: 5, count: 1 }]);
    expect(welchT(a, one)).toBeNull();
    expect(anova([a, one])).toMatchObject({ df1: 1, df2: 3 });
    expect(anova([one, one])).toBeNull();
    // The database's shifted sums give the same moments as the values.
    const values = [1_000_001, 1_000_002, 1_000_004];
    const shift = 1_000_000;
    const s = values.reduce((x, v) => x + (v - shift), 0);
    const ss = values.reduce((x, v) => x + (v - shift) ** 2, 0);
    const m = momentsOfSums(3, s, ss, shift);
    const direct = momentsOf(values.map((value) => ({ value, count: 1 })));
    expect(m.mean).toBeCloseTo(direct.mean, 9);
    expect(m.ss).toBeCloseTo(direct.ss, 9);
    expect(pooledMoments([a, a]).n).toBe(8);
  });

  it('scores NPS and names columns past Z', () => {
    expect(
      npsScore([
        { value: 10, count: 3 },
        { value: 8, count: 1 },
        { value: 2, count: 1 },
      ]),
    ).toBe(40);
    expect(npsScore([])).toBeNull();
    expect([0, 25, 26, 27, 701].map(columnLetter)).toEqual(['A', 'Z', 'AA', 'AB', 'ZZ']);
  });
});
