import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  computePrice,
  PRICE_COMPONENTS,
  type PriceSettings,
  type ProjectCounts,
} from '../../src/domain/price';

// The price formula of docs/decisions/games-pricing.md: worked examples computed by hand, and
// properties that must hold for any settings and counts.

const SEEDED: PriceSettings = {
  vkPercent: 10,
  basePrice: 5000,
  questionSurcharge: 500,
  questionStep: 10,
  blockSurcharge: 300,
  blockProgressive: 50,
  screeningPrice: 200,
  targetFilterSurcharge: 5,
  filledBlockPrice: 3,
  completedSurveyPrice: 30,
};

const ZERO: ProjectCounts = { questions: 0, blocks: 0, screening: 0, targetFilters: 0, completes: 0 };

describe('worked examples', () => {
  it('prices a typical project', () => {
    // 25 questions in 4 blocks, 2 screening, 3 target filters, 1000 completes, 10 % tariff:
    //   base 5000; questions ⌊25/10⌋ = 2 × 500 = 1000; blocks: 3 extra, 3 × 300 + 50 × (0+1+2) = 1050;
    //   screening 2 × 200 = 400; completes 1000 × 30 = 30000; filled blocks 1000 × 4 × 3 = 12000;
    //   target filters 1000 × 3 × 5 = 15000 → subtotal 64450; discount 6445 → 58005; VK 10 % = 5800.5
    const p = computePrice(
      SEEDED,
      { questions: 25, blocks: 4, screening: 2, targetFilters: 3, completes: 1000 },
      10,
    );
    expect(p.components).toEqual({
      base: 5000,
      questions: 1000,
      blocks: 1050,
      screening: 400,
      completes: 30000,
      filledBlocks: 12000,
      targetFilters: 15000,
    });
    expect(p.subtotal).toBe(64450);
    expect(p.discount).toBe(6445);
    expect(p.vk).toBe(5800.5);
    expect(p.total).toBe(63805.5);
  });

  it('charges the base price alone for an empty project', () => {
    const p = computePrice(SEEDED, ZERO);
    expect(p.subtotal).toBe(5000);
    expect(p.total).toBe(5500);
  });

  it('adds the question surcharge once per full N questions', () => {
    const q = (questions: number) => computePrice(SEEDED, { ...ZERO, questions }).components.questions;
    expect([q(9), q(10), q(19), q(20), q(21)]).toEqual([0, 500, 500, 1000, 1000]);
  });

  it('makes each further block cost the progressive part more than the one before', () => {
    const blocks = (b: number) => computePrice(SEEDED, { ...ZERO, blocks: b }).components.blocks;
    // The first block is in the base price; then 300, 350, 400, 450 …
    expect([1, 2, 3, 4, 5].map(blocks)).toEqual([0, 300, 650, 1050, 1500]);
  });

  it('rounds the VK share half up to the kopeck, once', () => {
    const s = { ...SEEDED, basePrice: 1, vkPercent: 5 };
    const none = { ...s, questionSurcharge: 0 };
    // 1 rouble − 3 % = 0.97; 5 % of it is 0.0485 → 0.05.
    const p = computePrice(none, ZERO, 3);
    expect(p.discount).toBe(0.03);
    expect(p.vk).toBe(0.05);
    expect(p.total).toBe(1.02);
  });

  it('is exact far beyond double precision of kopecks', () => {
    const big = { ...SEEDED, filledBlockPrice: 10_000_000, vkPercent: 0 };
    const p = computePrice(big, { ...ZERO, blocks: 1000, completes: 10_000_000 });
    expect(p.components.filledBlocks).toBe(1e17);
  });

  it('treats nonsense counts as zero rather than paying the customer', () => {
    const p = computePrice(SEEDED, {
      questions: -5,
      blocks: Number.NaN,
      screening: -1,
      targetFilters: Infinity,
      completes: -100,
    });
    expect(p.total).toBe(computePrice(SEEDED, ZERO).total);
  });
});

const money = fc.integer({ min: 0, max: 10_000_000 });
const settingsArb: fc.Arbitrary<PriceSettings> = fc.record({
  vkPercent: fc.integer({ min: 0, max: 100 }),
  basePrice: money,
  questionSurcharge: money,
  questionStep: fc.integer({ min: 1, max: 1000 }),
  blockSurcharge: money,
  blockProgressive: money,
  screeningPrice: money,
  targetFilterSurcharge: money,
  filledBlockPrice: money,
  completedSurveyPrice: money,
});
const countArb = fc.integer({ min: 0, max: 100_000 });
const countsArb: fc.Arbitrary<ProjectCounts> = fc.record({
  questions: countArb,
  blocks: fc.integer({ min: 0, max: 1000 }),
  screening: countArb,
  targetFilters: fc.integer({ min: 0, max: 100 }),
  completes: countArb,
});
const discountArb = fc.integer({ min: 0, max: 100 });
const COUNT_KEYS = ['questions', 'blocks', 'screening', 'targetFilters', 'completes'] as const;

describe('properties', () => {
  it('is monotone in each count', () => {
    fc.assert(
      fc.property(
        settingsArb,
        countsArb,
        discountArb,
        fc.constantFrom(...COUNT_KEYS),
        fc.integer({ min: 1, max: 1000 }),
        (s, c, d, key, more) => {
          const a = computePrice(s, c, d).total;
          const b = computePrice(s, { ...c, [key]: c[key] + more }, d).total;
          expect(b).toBeGreaterThanOrEqual(a);
        },
      ),
    );
  });

  it('is never negative, nor any of its parts', () => {
    fc.assert(
      fc.property(settingsArb, countsArb, discountArb, (s, c, d) => {
        const p = computePrice(s, c, d);
        for (const k of PRICE_COMPONENTS) expect(p.components[k]).toBeGreaterThanOrEqual(0);
        expect(p.discount).toBeGreaterThanOrEqual(0);
        expect(p.vk).toBeGreaterThanOrEqual(0);
        expect(p.total).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('adds up: parts to the subtotal, subtotal − discount + VK to the total', () => {
    fc.assert(
      fc.property(settingsArb, countsArb, discountArb, (s, c, d) => {
        const p = computePrice(s, c, d);
        const kop = (x: number) => Math.round(x * 100);
        // Beyond 2^53 kopecks a double cannot hold the sum exactly; the property is about real prices.
        // Every figure is at most the subtotal or the total (VK on top), so both must stay exact.
        fc.pre(Math.max(kop(p.subtotal), kop(p.total)) < Number.MAX_SAFE_INTEGER / 4);
        expect(PRICE_COMPONENTS.reduce((sum, k) => sum + kop(p.components[k]), 0)).toBe(kop(p.subtotal));
        expect(kop(p.subtotal) - kop(p.discount) + kop(p.vk)).toBe(kop(p.total));
      }),
    );
  });

  it('never charges more with a bigger discount, and nothing with a full one', () => {
    fc.assert(
      fc.property(settingsArb, countsArb, discountArb, discountArb, (s, c, d1, d2) => {
        const [lo, hi] = d1 <= d2 ? [d1, d2] : [d2, d1];
        expect(computePrice(s, c, hi).total).toBeLessThanOrEqual(computePrice(s, c, lo).total);
        expect(computePrice(s, c, 100).total).toBe(0);
      }),
    );
  });

  it('grows each further block by exactly the progressive part', () => {
    fc.assert(
      fc.property(settingsArb, fc.integer({ min: 1, max: 500 }), (s, b) => {
        const blocks = (n: number) => computePrice(s, { ...ZERO, blocks: n }).components.blocks;
        expect(blocks(b + 2) - 2 * blocks(b + 1) + blocks(b)).toBe(s.blockProgressive);
      }),
    );
  });
});
