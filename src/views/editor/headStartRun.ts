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
    if (picture) afterFirstFrame(preload);
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
 * Runs `f` in a task after the page's next frame, or after 100 ms if no frame comes by then (the
 * tab was hidden meanwhile: frames wait for it to be shown again, timers do not).
 */
function afterFirstFrame(f: () => void): void {
  let done = false;
  const go = () => {
    if (done) return;
    done = true;
    setTimeout(f, 0);
  };
  requestAnimationFrame(go);
  setTimeout(go, 100);
}

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
