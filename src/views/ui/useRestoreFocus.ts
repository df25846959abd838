import { useLayoutEffect, useRef } from 'react';

/**
 * Gives focus back to whatever had it when `open` became true, once `open` is false again: the
 * dialogs load lazily and the modal queue swaps content without closing, so Headless UI's own
 * restoration cannot know the element the user started from. An opener that has left the page
 * (a menu that closed) is skipped.
 */
export function useRestoreFocus(open: boolean): void {
  const opener = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (open) {
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
      return;
    }
    const el = opener.current;
    opener.current = null;
    if (!el) return;
    // After the dialog's own focus handling has run.
    const id = requestAnimationFrame(() => {
      if (el.isConnected) el.focus();
    });
    return () => cancelAnimationFrame(id);
  }, [open]);
}
