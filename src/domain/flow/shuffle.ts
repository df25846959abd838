import type { ShuffleMode } from '../content/model';

// The ten shuffle modes (spec section 3), deterministic per respondent: the order comes from a seed
// kept in the respondent's record and the question's id, so the runner, a resumed tab and the server
// all compute the same order, and the order shown is recorded beside the answers.
//
// "Reverse" modes show the list either as written or reversed, chosen per respondent (half of them
// see each order): always reversing would only be a different order the researcher could have
// typed. The "except" modes keep the named items in their place and move only the rest.

/** 32-bit FNV-1a of a string: the seed of one question's order. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: small, fast and good enough to shuffle a list of answers. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How many items stay fixed at the start and at the end, and whether the middle is shuffled or maybe reversed. */
const MODES: Record<ShuffleMode, { head: number; tail: number; how: 'none' | 'shuffle' | 'reverse' }> = {
  none: { head: 0, tail: 0, how: 'none' },
  shuffle: { head: 0, tail: 0, how: 'shuffle' },
  shuffleExceptLast: { head: 0, tail: 1, how: 'shuffle' },
  shuffleExceptLastTwo: { head: 0, tail: 2, how: 'shuffle' },
  shuffleExceptFirst: { head: 1, tail: 0, how: 'shuffle' },
  shuffleExceptFirstTwo: { head: 2, tail: 0, how: 'shuffle' },
  shuffleExceptFirstAndLast: { head: 1, tail: 1, how: 'shuffle' },
  reverse: { head: 0, tail: 0, how: 'reverse' },
  reverseExceptLast: { head: 0, tail: 1, how: 'reverse' },
  reverseExceptLastTwo: { head: 0, tail: 2, how: 'reverse' },
};

/** What a mode does to the items it moves: keeps them, shuffles them, or reverses them for half of respondents. */
export function shuffleKind(mode: ShuffleMode): 'none' | 'shuffle' | 'reverse' {
  return (MODES[mode] ?? MODES.none).how;
}

/** How many of n items a mode moves (the rest stay in their place). */
export function movableCount(mode: ShuffleMode, n: number): number {
  const m = MODES[mode] ?? MODES.none;
  if (m.how === 'none') return 0;
  const head = Math.min(m.head, n);
  return n - head - Math.min(m.tail, n - head);
}

/** The items in the order a respondent with this seed sees them. Never changes the input. */
export function arrange<T>(items: readonly T[], mode: ShuffleMode, seed: string): T[] {
  return arrangeWith(items, mode, random(hash32(seed)));
}

/**
 * The one arrangement behind `arrange`, with the respondent's generator handed in: the editor's
 * preview calls it with fixed draws to show both halves of a "reverse" mode, so what it shows and
 * what the runner does cannot drift apart.
 */
export function arrangeWith<T>(items: readonly T[], mode: ShuffleMode, rnd: () => number): T[] {
  const m = MODES[mode] ?? MODES.none;
  const out = items.slice();
  if (m.how === 'none' || out.length < 2) return out;
  const head = Math.min(m.head, out.length);
  const tail = Math.min(m.tail, out.length - head);
  const middle = out.slice(head, out.length - tail);
  if (m.how === 'reverse') {
    if (rnd() < 0.5) middle.reverse();
  } else {
    for (let i = middle.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [middle[i], middle[j]] = [middle[j], middle[i]];
    }
  }
  return [...out.slice(0, head), ...middle, ...out.slice(out.length - tail)];
}
