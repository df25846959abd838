import { fetchProject, type ProjectDocument } from '../../api/content';
import type { EarlyRows } from '../../db/earlyRead';
import { openedProject, takeHeadStart } from './headStart';

// The project's fetch for a page opened straight on /project, started by the app's first script
// (startEarly.ts, before the rest of the start-up is evaluated), before the editor's chunk has even
// arrived. Small on purpose: it is in the first load of every page. The local copy (the draft, its
// change-log, the canvas's cached positions) is read beside it with the browser's IndexedDB
// (earlyRead.ts), not after the editor's chunk and Dexie have arrived: by the HTML's inline script
// (headStart.ts), which every build's page has. Without it (the dev server) the editor's chunk reads
// the copy through Dexie (prefetch.ts), and the start-up carries no second copy of the read: every
// page loads this module. The editor's chunk takes both (prefetch.ts).

interface Early {
  pid: number;
  userId: number;
  server: Promise<ProjectDocument>;
  /** The head start's read; null when the page had none. */
  local: Promise<EarlyRows | null> | null;
}

let early: Early | null = null;

export function fetchOpenedProject(): void {
  const opened = openedProject();
  if (!opened) return;
  const server = fetchProject(opened.pid);
  // Read later or never: its rejection may not go unhandled meanwhile.
  server.catch(() => {});
  early = { ...opened, server, local: takeHeadStart(opened.pid, opened.userId) };
}

/** The project this page was opened on, and its reads if the first script started them (once). */
export function takeOpenedProject(): {
  pid: number;
  userId: number;
  server: Promise<ProjectDocument> | null;
  local: Promise<EarlyRows | null> | null;
} | null {
  const opened = openedProject();
  const e = early;
  early = null;
  if (!opened) return null;
  const same = e !== null && e.pid === opened.pid && e.userId === opened.userId;
  return { ...opened, server: same ? e.server : null, local: same ? e.local : null };
}
