import { useLayoutEffect, useRef } from 'react';

/**
 * Gives focus back to whatever had it when `open` became true, once `open` is false again: the
 * dialogs load lazily and the modal queue swaps content without closing, so Headless UI's own
 * restoration cannot know the element the user started from. An opener that has left the page
 * (a menu that closed) is skipped.
 */
export function useRestoreFocus(open: boolean): void {
  const opener = useRef<HTMLElement | null>(null);
  // The opener whose focus is about to be given back. A dialog that follows straight on from another
  // (a new game's form, then its keys) opens before that happens, while focus is on the body: it
  // takes over this opener instead, so closing it still returns to where the user started.
  const pending = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (open) {
      const active = document.activeElement;
      opener.current =
        pending.current ?? (active instanceof HTMLElement && active !== document.body ? active : null);
      pending.current = null;
      return;
    }
    const el = opener.current;
    opener.current = null;
    if (!el) return;
    pending.current = el;
    // After the dialog's own focus handling has run.
    const id = requestAnimationFrame(() => {
      pending.current = null;
      if (el.isConnected) el.focus();
    });
    return () => cancelAnimationFrame(id);
  }, [open]);
}
