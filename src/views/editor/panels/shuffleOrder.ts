import type { ShuffleMode } from '../../../domain/content/model';

// The order a shuffle mode (spec section 3) gives n answers, for the panel's preview: which items
// stay in place, which are shuffled or reversed. `random` is injectable so tests are repeatable.

/** How many items stay fixed at the start and at the end, and what happens to the rest. */
const MODES: Record<ShuffleMode, { head: number; tail: number; op: 'keep' | 'shuffle' | 'reverse' }> = {
  none: { head: 0, tail: 0, op: 'keep' },
  shuffle: { head: 0, tail: 0, op: 'shuffle' },
  shuffleExceptLast: { head: 0, tail: 1, op: 'shuffle' },
  shuffleExceptLastTwo: { head: 0, tail: 2, op: 'shuffle' },
  shuffleExceptFirst: { head: 1, tail: 0, op: 'shuffle' },
  shuffleExceptFirstTwo: { head: 2, tail: 0, op: 'shuffle' },
  shuffleExceptFirstAndLast: { head: 1, tail: 1, op: 'shuffle' },
  reverse: { head: 0, tail: 0, op: 'reverse' },
  reverseExceptLast: { head: 0, tail: 1, op: 'reverse' },
  reverseExceptLastTwo: { head: 0, tail: 2, op: 'reverse' },
};

export function shuffleOrder(mode: ShuffleMode, n: number, random: () => number = Math.random): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  const { head, tail, op } = MODES[mode];
  const from = Math.min(head, n);
  const to = Math.max(from, n - tail);
  const middle = order.slice(from, to);
  if (op === 'reverse') middle.reverse();
  if (op === 'shuffle')
    for (let i = middle.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [middle[i], middle[j]] = [middle[j], middle[i]];
    }
  return [...order.slice(0, from), ...middle, ...order.slice(to)];
}
