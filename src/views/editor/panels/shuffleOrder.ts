import type { ShuffleMode } from '../../../domain/content/model';
import { arrange, arrangeWith, movableCount, shuffleKind } from '../../../domain/flow/shuffle';

// What a shuffle mode (spec section 3) gives respondents, for the panel's preview. It calls the
// runner's own arrangement (src/domain/flow/shuffle.ts), so the preview shows what respondents see:
// a "reverse" mode shows the list as written to half of them and reversed to the other half; a
// "shuffle" mode gives each respondent their own order, drawn from their seed.

export type ShufflePreview =
  /** Everyone sees this order (no shuffling, or too few items for the mode to move any). */
  | { kind: 'same'; order: number[] }
  /** A reverse mode: half of respondents see `asListed`, the other half `reversed`. */
  | { kind: 'halves'; asListed: number[]; reversed: number[] }
  /** A shuffle mode: the order example respondent `respondent` sees (1-based positions). */
  | { kind: 'example'; respondent: number; order: number[] };

/** The seed of example respondent k: the runner arranges a question with `${seed}:${questionId}`. */
export const exampleSeed = (k: number) => `example-${k}`;

/** 1-based positions of n items in the order a respondent with `seed` sees them for this question. */
export function shuffleOrder(mode: ShuffleMode, n: number, seed: string): number[] {
  return arrange(
    Array.from({ length: n }, (_, i) => i + 1),
    mode,
    seed,
  );
}

export function shufflePreview(
  mode: ShuffleMode,
  n: number,
  questionId: string,
  respondent = 1,
): ShufflePreview {
  const listed = Array.from({ length: n }, (_, i) => i + 1);
  // Fewer than two items to move: the mode cannot change the order.
  if (movableCount(mode, n) < 2) return { kind: 'same', order: listed };
  if (shuffleKind(mode) === 'reverse')
    // The runner reverses when the respondent's first draw is below one half.
    return {
      kind: 'halves',
      asListed: arrangeWith(listed, mode, () => 0.75),
      reversed: arrangeWith(listed, mode, () => 0.25),
    };
  return {
    kind: 'example',
    respondent,
    order: shuffleOrder(mode, n, `${exampleSeed(respondent)}:${questionId}`),
  };
}
