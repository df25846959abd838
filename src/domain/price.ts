// The price of a survey project (docs/decisions/games-pricing.md, "Price formula"). One pure
// function used by the calculator's live estimate and, later, by the editor for a real project.
//
//   one-off part   = base price
//                  + ⌊questions ÷ N⌋ × question surcharge             (N = "for every N questions")
//                  + Σ over extra blocks i = 1..b−1 of (block surcharge + (i−1) × progressive part)
//                  + screening questions × screening question price
//   per respondent = price per completed survey
//                  + blocks × filled-block price
//                  + target filters × target filter surcharge
//   subtotal       = one-off part + completed surveys × per respondent
//   total          = subtotal − discount % of it, then + VK percent of what remains
//
// Money is computed in whole kopecks with BigInt, so the result is exact for any size and the
// function is monotone in every count (rounding happens once, half up, on the VK share).

/** The ten calculator settings of spec section 3 for one audience. Money in whole roubles. */
export interface PriceSettings {
  vkPercent: number;
  basePrice: number;
  questionSurcharge: number;
  /** "For every N questions": the question surcharge is added once per full N questions. */
  questionStep: number;
  blockSurcharge: number;
  /** How much more each further extra block costs than the one before it. */
  blockProgressive: number;
  screeningPrice: number;
  targetFilterSurcharge: number;
  filledBlockPrice: number;
  completedSurveyPrice: number;
}

/** What a project consists of, as far as its price goes. */
export interface ProjectCounts {
  /** Every question, screening ones included. */
  questions: number;
  blocks: number;
  screening: number;
  targetFilters: number;
  completes: number;
}

export const PRICE_COMPONENTS = [
  'base',
  'questions',
  'blocks',
  'screening',
  'completes',
  'filledBlocks',
  'targetFilters',
] as const;
export type PriceComponent = (typeof PRICE_COMPONENTS)[number];

export interface PriceBreakdown {
  /** Each component in roubles (two decimals at most). */
  components: Record<PriceComponent, number>;
  subtotal: number;
  discount: number;
  vk: number;
  total: number;
}

/** A count as the formula uses it: a whole number, never below zero. */
function count(n: number): bigint {
  return Number.isFinite(n) && n > 0 ? BigInt(Math.floor(n)) : 0n;
}

/** A money setting in kopecks; percents and the step go through `count` as they are. */
function kopecks(roubles: number): bigint {
  return count(roubles) * 100n;
}

function roubles(k: bigint): number {
  return Number(k) / 100;
}

export function computePrice(
  settings: PriceSettings,
  counts: ProjectCounts,
  discountPercent = 0,
): PriceBreakdown {
  const q = count(counts.questions);
  const b = count(counts.blocks);
  const s = count(counts.screening);
  const f = count(counts.targetFilters);
  const c = count(counts.completes);
  const step = count(settings.questionStep) || 1n;
  const extraBlocks = b > 0n ? b - 1n : 0n;

  const parts: Record<PriceComponent, bigint> = {
    base: kopecks(settings.basePrice),
    questions: (q / step) * kopecks(settings.questionSurcharge),
    blocks:
      extraBlocks * kopecks(settings.blockSurcharge) +
      ((extraBlocks * (extraBlocks > 0n ? extraBlocks - 1n : 0n)) / 2n) * kopecks(settings.blockProgressive),
    screening: s * kopecks(settings.screeningPrice),
    completes: c * kopecks(settings.completedSurveyPrice),
    filledBlocks: c * b * kopecks(settings.filledBlockPrice),
    targetFilters: c * f * kopecks(settings.targetFilterSurcharge),
  };
  const subtotal = PRICE_COMPONENTS.reduce((sum, key) => sum + parts[key], 0n);
  const d = clampPercent(discountPercent);
  // subtotal is whole kopecks × 100 per rouble, so d % of it is whole kopecks: no rounding here.
  const discount = (subtotal * d) / 100n;
  const afterDiscount = subtotal - discount;
  const vkShare = clampPercent(settings.vkPercent);
  const vk = (afterDiscount * vkShare + 50n) / 100n;

  return {
    components: Object.fromEntries(PRICE_COMPONENTS.map((k) => [k, roubles(parts[k])])) as Record<
      PriceComponent,
      number
    >,
    subtotal: roubles(subtotal),
    discount: roubles(discount),
    vk: roubles(vk),
    total: roubles(afterDiscount + vk),
  };
}

function clampPercent(p: number): bigint {
  const n = count(p);
  return n > 100n ? 100n : n;
}
