// The editor's opening picture (issue 34, the reopen in a new tab; docs/decisions/reopen.md).
//
// In a new tab the editor's first row took 600–700 ms here, almost all of it the new page's own
// start: its renderer, the start-up's and the editor's scripts, React's first render and the first
// layout. The picture is the editor's first screen as it opens that project's local copy (the
// frame, the outline's first rows, "checking the server for changes"), kept as HTML in localStorage.
// The HTML's head start shows it, inert and hidden from assistive technology, while the page
// starts; the editor removes it in the commit that draws its own outline, so it is never shown
// beside the live editor. It is shown only when it depicts the local copy as stored now (its
// stamp), for the same user, language and width band; anything else opens as before.
//
// This file is shared by the head start (inline in index.html: keep it small, importing nothing but
// pictureKeys.ts) and the editor.

import {
  COPY_KEY,
  LIST_KEY,
  PICTURE_ID,
  PICTURE_KEY,
  localStore as storage,
  removePicture,
} from './pictureKeys';

/** Projects whose pictures are kept (about 35 KB each). */
const KEPT = 5;
/** The head start removes a picture the app has not taken over by then (a failed start-up). */
const GIVE_UP_MS = 10_000;

export interface Picture {
  userId: number;
  locale: string;
  band: number;
  /** The stamp of the local copy it depicts (copyStamp). */
  stamp: string;
  /** The body's classes (the picture sits beside the body, which is not parsed yet). */
  bodyClass: string;
  html: string;
}

/** The layout's breakpoints (Tailwind's sm to 2xl): a picture is shown only in the band it was taken in. */
export function widthBand(width: number): number {
  return [640, 768, 1024, 1280, 1536].filter((b) => width >= b).length;
}

/** A short stamp of the local copy's text (FNV-1a and the length): equal texts, equal stamps. */
export function copyStamp(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `${text.length.toString(36)}.${(h >>> 0).toString(36)}`;
}

/**
 * Stamps waiting for idle time, by project: run at once when the page is hidden or left; one whose
 * copy was written again or deleted meanwhile is no longer here, and does nothing.
 */
const pending = new Map<number, () => void>();
let stampsOnHide = false;

/**
 * Called once a draft's write has committed: the local copy of `pid` is now `text`, stamped when the
 * page is idle, or when it is hidden or left before that (a tab closed right after an autosave).
 */
export function stampCopyWhenIdle(pid: number, userId: number, text: string): void {
  const stamp = () => {
    if (pending.get(pid) !== stamp) return;
    pending.delete(pid);
    try {
      storage()?.setItem(COPY_KEY + pid, `${userId}:${copyStamp(text)}`);
    } catch {
      // Full storage: the picture's stamp no longer matches and it is not shown.
      storage()?.removeItem(COPY_KEY + pid);
    }
  };
  pending.set(pid, stamp);
  if (!stampsOnHide && typeof window !== 'undefined') {
    stampsOnHide = true;
    const now = () => [...pending.values()].forEach((f) => f());
    window.addEventListener('pagehide', now);
    document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && now());
  }
  if (typeof requestIdleCallback === 'function') requestIdleCallback(stamp, { timeout: 2000 });
  else setTimeout(stamp, 0);
}

/** The local copy of `pid` is gone: so is its picture. */
export function forgetCopy(pid: number): void {
  // A stamp still waiting for idle time is dropped: a deleted copy is not stamped back.
  pending.delete(pid);
  const s = storage();
  s?.removeItem(COPY_KEY + pid);
  s?.removeItem(PICTURE_KEY + pid);
}

/** Keeps the picture of `pid`, and those of the KEPT - 1 projects opened before it. */
export function storePicture(pid: number, picture: Picture): void {
  const s = storage();
  if (!s) return;
  try {
    let list: number[] = [];
    try {
      const parsed: unknown = JSON.parse(s.getItem(LIST_KEY) ?? '[]');
      if (Array.isArray(parsed)) list = parsed.filter((x): x is number => Number.isInteger(x));
    } catch {
      // A damaged list starts again.
    }
    list = [pid, ...list.filter((x) => x !== pid)];
    for (const old of list.slice(KEPT)) s.removeItem(PICTURE_KEY + old);
    s.setItem(LIST_KEY, JSON.stringify(list.slice(0, KEPT)));
    s.setItem(PICTURE_KEY + pid, JSON.stringify(picture));
  } catch {
    // Full storage: no picture; the editor opens as before.
    s.removeItem(PICTURE_KEY + pid);
  }
}

/** The stored picture of `pid` when it depicts this user's local copy as stored now, in this language and band. */
export function pictureFor(pid: number, userId: number, locale: string, width: number): Picture | null {
  const s = storage();
  try {
    const p = JSON.parse(s?.getItem(PICTURE_KEY + pid) ?? 'null') as Picture | null;
    if (
      !p ||
      typeof p.html !== 'string' ||
      p.userId !== userId ||
      p.locale !== locale ||
      p.band !== widthBand(width) ||
      s?.getItem(COPY_KEY + pid) !== `${userId}:${p.stamp}`
    )
      return null;
    return p;
  } catch {
    return null;
  }
}

/** Shows the picture over the starting page (the head start, before the body is parsed). */
export function showPicture(picture: Picture): void {
  const d = document.createElement('div');
  d.id = PICTURE_ID;
  d.inert = true;
  d.setAttribute('aria-hidden', 'true');
  d.className = picture.bodyClass;
  // The pointer says the page is still starting: a click here does nothing until the editor is live.
  d.style.cssText = 'position:fixed;inset:0;z-index:50;overflow:hidden;cursor:progress';
  d.innerHTML = picture.html;
  document.documentElement.appendChild(d);
  setTimeout(removePicture, GIVE_UP_MS);
  performance.mark('editor:picture');
}
