import { readSettings } from '../../i18n/setup';
import { APP_DB_NAME, readEarly } from '../../db/earlyRead';
import { pictureFor, showPicture } from '../../db/openingPicture';
import { openedProject } from './headStart';

// The head start's own work (headStart.ts says what it is for), compiled into the HTML's inline
// script (headStartInline.ts): apart from headStart.ts so that the start-up's chunk, which takes the
// read through headStart.ts, does not carry the opening picture's code (db/openingPicture.ts).

/**
 * Run by the inline script with the editor's chunks and, by language, the dictionary chunks of its
 * first render (their paths, from the build: its data-chunks and data-dictionaries). The start-up
 * asks for the dictionaries only once its own script has come and been evaluated; asked for here,
 * they arrive beside the editor's chunks instead of after them.
 */
export function headStart(
  chunks: readonly string[],
  dictionaries: Readonly<Record<string, readonly string[]>> = {},
): void {
  try {
    const opened = openedProject();
    if (!opened) return;
    const { locale } = readSettings();
    // The editor's first screen as it opens this local copy, shown while the page starts
    // (db/openingPicture.ts). Its first frame comes before the chunks are asked for: their 20 requests
    // cost this task 60–80 ms on the two-core machine, and the picture painted that much later;
    // asked for a frame later, the live editor took over no later (docs/decisions/reopen.md). The
    // read starts at once either way: it is mostly the browser's wait, not this thread's work.
    const picture = pictureShown(opened.pid, opened.userId, locale);
    const preload = () => {
      for (const href of [...chunks, ...(dictionaries[locale] ?? [])]) {
        const link = document.createElement('link');
        link.rel = 'modulepreload';
        link.crossOrigin = '';
        link.href = href;
        document.head.appendChild(link);
      }
    };
    if (picture) afterPresented(preload);
    else preload();
    const local =
      typeof indexedDB === 'undefined' ? Promise.resolve(null) : readEarly(APP_DB_NAME, opened.pid);
    window.__projectHeadStart = { ...opened, local };
    // The e2e test and the bench read that it ran (the page's CSP allows it by its hash).
    performance.mark('editor:head-start');
  } catch {
    // The start-up does the same itself.
  }
}

/**
 * Runs `f` once the page's first contentful frame (the picture) has been presented: the paint
 * timing's entry comes with the frame's presentation, where a task after the frame comes as soon as
 * the main thread has handed it over, before its raster. Asked for then, the chunks' requests and
 * their parsing on background threads took both cores while the picture was rastered, and it was
 * presented 70–130 ms after its frame (docs/decisions/reopen.md, sixth round). Without the paint
 * timing, or with no frame within PRESENTED_WAIT_MS (the tab hidden meanwhile), `f` runs then.
 */
function afterPresented(f: () => void): void {
  let done = false;
  let observer: PerformanceObserver | undefined;
  const go = () => {
    if (done) return;
    done = true;
    observer?.disconnect();
    setTimeout(f, 0);
  };
  try {
    observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) go();
    });
    observer.observe({ type: 'paint', buffered: true });
  } catch {
    requestAnimationFrame(go);
  }
  setTimeout(go, PRESENTED_WAIT_MS);
}
const PRESENTED_WAIT_MS = 400;

/** Shows the project's opening picture when there is one to show; a damaged one is not shown. */
function pictureShown(pid: number, userId: number, locale: string): boolean {
  // A tab opened in the background draws nothing until it is shown: no picture to show there.
  if (document.visibilityState === 'hidden') return false;
  try {
    const picture = pictureFor(pid, userId, locale, window.innerWidth);
    if (picture) showPicture(picture);
    return picture !== null;
  } catch {
    return false;
  }
}
