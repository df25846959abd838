import { startTransition, useEffect, useState, type RefObject } from 'react';
import { usePainted } from '../ui/afterPaint';

// Drawing a chart costs a task of its own (uPlot: 60–150 ms on Lighthouse's slowed-down phone), and
// a report has one per question, most of them below the fold (issue 25, Lighthouse on /report).
// A chart is drawn when its box comes near the viewport (200 px ahead, so a scrolling reader finds
// it drawn), and every chart still waiting is drawn before the page is printed. Drawing the rest
// when idle was tried: each is still a long task on a slow phone, and together they were a third
// of the page's blocking time.

const waiting = new Set<() => void>();
if (typeof window !== 'undefined') {
  window.addEventListener('beforeprint', () => {
    for (const show of [...waiting]) show();
  });
}

/**
 * Whether the element has come near the viewport (stays true once it has). Watched from the frame
 * after the page's first paint on (afterPaint.ts): the chart library is never asked for before it.
 */
export function useShown(ref: RefObject<Element | null>): boolean {
  const [shown, setShown] = useState(false);
  const painted = usePainted();
  useEffect(() => {
    const el = ref.current;
    if (!el || shown || !painted) return;
    if (typeof IntersectionObserver === 'undefined') {
      setShown(true);
      return;
    }
    const show = () => setShown(true);
    const seen = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && show(), {
      rootMargin: '200px 0px',
    });
    seen.observe(el);
    waiting.add(show);
    return () => {
      seen.disconnect();
      waiting.delete(show);
    };
  }, [ref, shown, painted]);
  return shown;
}

/**
 * How many of `count` parts to render: none at first, then one more per task, so a long report is
 * rendered, committed and laid out in slices rather than in one long task (a longer report that
 * replaces it adds its extra parts the same way).
 */
export function useSlices(count: number): number {
  const [shown, setShown] = useState(0);
  useEffect(() => {
    if (count === 0 || shown >= count) return;
    // A transition: React renders the part in slices of a few milliseconds too, so only its commit
    // is a task of its own.
    const t = setTimeout(() => startTransition(() => setShown((s) => s + 1)), 0);
    return () => clearTimeout(t);
  }, [shown, count]);
  return Math.min(shown, count);
}
