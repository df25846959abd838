import { readAuth } from '../../api/storage';
import type { EarlyRows } from '../../db/earlyRead';

// The editor's head start (issue 34, the reopen in a new tab; docs/decisions/reopen.md). Compiled on
// its own (headStartInline.ts) and written into index.html as an inline script (vite.config.ts,
// editorHeadStart; the server allows it by its hash), so that it runs while the HTML is parsed, before the start-up's
// script has even come out of the HTTP cache: on /project, signed in, it asks for the editor's
// chunks (<link rel="modulepreload">) and starts reading the project's local copy. In a new tab
// IndexedDB's first open waits for the browser to set up the origin's storage, and the start-up's
// script took 100–250 ms to come from the cache on a loaded machine: both now wait beside it, not
// after it. The start-up takes the read (earlyFetch.ts); anywhere else, or when this did not run
// (the dev server, an older HTML), the start-up reads the copy itself as before. What the inline
// script runs is in headStartRun.ts, which the start-up's chunk does not carry; this file is what
// both share.

export interface HeadStart {
  pid: number;
  userId: number;
  /** The local copy's rows as earlyRead.ts reads them; null when there are none to read. */
  local: Promise<EarlyRows | null>;
}

declare global {
  interface Window {
    __projectHeadStart?: HeadStart;
  }
}

/** The pid of /project?pid=N when the page is on it and someone is signed in here; else null. */
export function openedProject(): { pid: number; userId: number } | null {
  if (typeof location === 'undefined' || location.pathname !== '/project') return null;
  const pid = Number(new URLSearchParams(location.search).get('pid'));
  const auth = readAuth();
  return Number.isInteger(pid) && pid > 0 && auth ? { pid, userId: auth.userId } : null;
}

/** The head start's read for this project and user, handed out once; null when there is none. */
export function takeHeadStart(pid: number, userId: number): Promise<EarlyRows | null> | null {
  if (typeof window === 'undefined') return null;
  const h = window.__projectHeadStart;
  window.__projectHeadStart = undefined;
  return h && h.pid === pid && h.userId === userId ? h.local : null;
}
