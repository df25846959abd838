// The editor's opening picture's names in localStorage and the page, and the two things the start-up
// does with it (openingPicture.ts has the rest, which the start-up's chunk does not carry).

export const PICTURE_KEY = 'editor-picture:';
export const COPY_KEY = 'editor-copy:';
export const LIST_KEY = 'editor-pictures';
export const PICTURE_ID = 'editor-picture';

/** The page's localStorage, or null where there is none or it may not be used. */
export function localStore(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** Every picture of this browser (signing out). */
export function forgetPictures(): void {
  const s = localStore();
  if (!s) return;
  const keys: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const k = s.key(i);
    if (k && (k.startsWith(PICTURE_KEY) || k.startsWith(COPY_KEY) || k === LIST_KEY)) keys.push(k);
  }
  for (const k of keys) s.removeItem(k);
}

/** Removes the picture, if one is shown: the app's own page is drawn in the same commit. */
export function removePicture(): void {
  if (typeof document !== 'undefined') document.getElementById(PICTURE_ID)?.remove();
}
