import { useEffect, useState } from 'react';

// Work a page starts only once its first frame is on screen (issue 25, Lighthouse): Lighthouse's
// simulation counts every request started before the largest paint in that paint's time, so the
// chart library or the service worker asked for in the same frame as the page's first commit made
// the page "paint" a whole round trip (and 24 KB) later than it did.
//
// Two animation frames are not enough on the document's first load: the frame is shown some frames
// after it was drawn (a headless Chromium showed it 5–30 ms after the second frame), and the paint
// Lighthouse reads is the moment it is shown. The browser reports that moment as the document's
// first contentful paint, so until there is one the work waits for it (at most FIRST_PAINT_MS).

const FIRST_PAINT_MS = 3000;
let firstPaint: Promise<void> | null = null;

function firstPaintShown(): Promise<void> {
  firstPaint ??= new Promise<void>((resolve) => {
    if (
      typeof PerformanceObserver === 'undefined' ||
      !PerformanceObserver.supportedEntryTypes?.includes('paint') ||
      performance.getEntriesByName('first-contentful-paint').length > 0
    ) {
      resolve();
      return;
    }
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      resolve();
    });
    observer.observe({ type: 'paint', buffered: true });
    setTimeout(() => {
      observer.disconnect();
      resolve();
    }, FIRST_PAINT_MS);
  });
  return firstPaint;
}

export function afterPaint(run: () => void): () => void {
  let cancelled = false;
  let timer = 0;
  const frame = requestAnimationFrame(() =>
    requestAnimationFrame(
      () =>
        void firstPaintShown().then(() => {
          if (!cancelled) timer = window.setTimeout(run, 0);
        }),
    ),
  );
  return () => {
    cancelled = true;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

/** False in the component's first frame, true once that frame has been painted. */
export function usePainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (painted) return;
    return afterPaint(() => setPainted(true));
  }, [painted]);
  return painted;
}
