import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { createPortal } from 'react-dom';

// The header's menus and the project row's actions without Headless UI (issue 25): its menu,
// popover, floating positioning and focus helpers were a third of every signed-in page's script.
// Two small widgets of the WAI-ARIA patterns instead: a menu button (role="menu" of "menuitem"s:
// arrow keys, Home, End, Escape, Tab and a click outside close it, focus returns to the button) and
// a disclosure (a button that shows a non-modal panel under it).

/** Closes on a pointer press outside both elements, and on Escape (focus back on the button). */
function useDismiss(
  open: boolean,
  close: (refocus: boolean) => void,
  button: RefObject<HTMLElement | null>,
  panel: RefObject<HTMLElement | null>,
) {
  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!button.current?.contains(t) && !panel.current?.contains(t)) close(false);
    };
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        close(true);
      }
    };
    document.addEventListener('pointerdown', onPointer, true);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer, true);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, close, button, panel]);
}

export interface MenuProps {
  /** The button's accessible name. */
  label: string;
  buttonClassName: string;
  buttonContent: ReactNode;
  panelClassName: string;
  /** Gap in pixels between the button and the menu, which opens below it, right-aligned. */
  gap?: number;
  /** The menu's content: items made with <MenuItem>, and any plain content. */
  children: ReactNode;
}

const ITEMS = '[role="menuitem"]:not([aria-disabled="true"])';
/** The space kept between a menu and the window's edges. */
const EDGE = 4;

type Place = { top?: number; bottom?: number; right: number; maxHeight: number };

/** Where a menu of `height` goes beside its button: below it, or above when only that has room. */
function placeMenu(r: DOMRect, height: number, gap: number): Place {
  const right = Math.max(EDGE, window.innerWidth - r.right);
  const below = window.innerHeight - r.bottom - gap - EDGE;
  const above = r.top - gap - EDGE;
  return height > below && above > below
    ? { bottom: window.innerHeight - r.top + gap, right, maxHeight: above }
    : { top: r.bottom + gap, right, maxHeight: Math.max(below, 0) };
}

/**
 * A menu button. The menu is portaled and placed fixed under the button (right edges aligned), so a
 * table's scrolling box does not clip it; it follows the button on scroll and resize. Where it does
 * not fit below (a row near the bottom of a phone's screen), it opens above when there is more room
 * there, and it scrolls within the room it has, so every item can be reached.
 */
export function DropdownMenu({
  label,
  buttonClassName,
  buttonContent,
  panelClassName,
  gap = 4,
  children,
}: MenuProps) {
  const [open, setOpen] = useState(false);
  const [place, setPlace] = useState<Place | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const id = useId();
  const close = useCallback((refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  }, []);
  useDismiss(open, close, button, panel);

  useLayoutEffect(() => {
    if (!open) return;
    const measure = () =>
      setPlace(placeMenu(button.current!.getBoundingClientRect(), panel.current?.scrollHeight ?? 0, gap));
    measure();
    window.addEventListener('scroll', measure, true);
    window.addEventListener('resize', measure);
    return () => {
      window.removeEventListener('scroll', measure, true);
      window.removeEventListener('resize', measure);
    };
  }, [open, gap]);

  useEffect(() => {
    if (open && place) panel.current?.querySelector<HTMLElement>(ITEMS)?.focus();
  }, [open, place]);

  const move = (e: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(panel.current?.querySelectorAll<HTMLElement>(ITEMS) ?? [])];
    if (items.length === 0) return;
    const at = items.indexOf(document.activeElement as HTMLElement);
    const to =
      e.key === 'ArrowDown'
        ? (at + 1) % items.length
        : e.key === 'ArrowUp'
          ? (at - 1 + items.length) % items.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? items.length - 1
              : null;
    if (to !== null) {
      e.preventDefault();
      items[to].focus();
    } else if (e.key === 'Tab') close(false);
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        data-open={open ? '' : undefined}
        className={buttonClassName}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        {buttonContent}
      </button>
      {open &&
        createPortal(
          <div
            ref={panel}
            id={id}
            role="menu"
            aria-label={label}
            tabIndex={-1}
            onKeyDown={move}
            // A chosen item closes the menu; focus goes back to its button.
            onClick={(e) => {
              const item = (e.target as HTMLElement).closest('[role="menuitem"]');
              if (item && item.getAttribute('aria-disabled') !== 'true') close(true);
            }}
            style={{
              position: 'fixed',
              top: place ? place.top : 0,
              bottom: place?.bottom,
              right: place?.right ?? 0,
              maxHeight: place?.maxHeight,
              overflowY: 'auto',
              visibility: place ? undefined : 'hidden',
            }}
            className={panelClassName}
          >
            {children}
          </div>,
          document.body,
        )}
    </>
  );
}

/** A menu's item: a button (or pass `as="link"` content through children for a link). */
export function MenuItem({
  onSelect,
  disabled,
  className,
  children,
}: {
  onSelect: () => void;
  disabled?: boolean;
  className: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      role="menuitem"
      tabIndex={-1}
      aria-disabled={disabled || undefined}
      data-disabled={disabled ? '' : undefined}
      onClick={disabled ? undefined : onSelect}
      className={className}
    >
      {children}
    </button>
  );
}

/** A button that shows a non-modal panel under it (the header's settings). */
export function Disclosure({
  label,
  buttonClassName,
  buttonContent,
  panelClassName,
  children,
}: {
  label: string;
  buttonClassName: string;
  buttonContent: ReactNode;
  panelClassName: string;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const id = useId();
  const close = useCallback((refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  }, []);
  useDismiss(open, close, button, panel);
  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        aria-label={label}
        title={label}
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        data-open={open ? '' : undefined}
        className={buttonClassName}
        onClick={() => setOpen((o) => !o)}
      >
        {buttonContent}
      </button>
      {open && (
        <div
          ref={panel}
          id={id}
          className={panelClassName}
          // Focus leaving the panel and its button closes it, as a popover does.
          onBlur={(e) => {
            const to = e.relatedTarget as Node | null;
            if (to && !panel.current?.contains(to) && !button.current?.contains(to)) close(false);
          }}
        >
          {children}
        </div>
      )}
    </div>
  );
}
