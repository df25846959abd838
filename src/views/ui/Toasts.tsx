import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import {
  toast as hotToast,
  useToaster,
  useToasterStore,
  type Toast,
  type ToastPosition,
} from 'react-hot-toast';
import { useI18nContext } from '../../i18n/i18n-react';
import { CheckIcon, ErrorIcon, InfoIcon, WarningIcon } from './icons';
import { TOAST_POSITIONS, type ToastKind } from './toast';

// The toast host, mounted once (spec section 9): auto-close after 5000 ms; at most 20 at once, the
// oldest dropped (react-hot-toast's store keeps the newest 20); newest on top in every corner; paused
// while the pointer is over a toast and while the window has no focus; a click closes a toast; a
// sideways drag past 60 % of its width dismisses it.

export const TOAST_DURATION_MS = 5000;
export const DRAG_DISMISS_RATIO = 0.6;
const GUTTER = 8;

/**
 * Top toasts start below the page's top chrome (the main header, the editor's toolbar) so they never
 * cover its buttons; the header's menus open above toasts (z-index) for the same reason.
 */
const TOP_CHROME = 'header, [role="toolbar"]';
const EDGE = 16;

function chromeBottom(): number {
  const boxes = [...document.querySelectorAll(TOP_CHROME)]
    .map((el) => el.getBoundingClientRect())
    .filter((r) => r.height > 0)
    .sort((a, b) => a.top - b.top);
  let bottom = 0;
  // Chrome stacked from the top of the window down; a header further down a page does not count.
  for (const r of boxes) {
    if (r.top <= bottom + 1 && r.bottom < window.innerHeight / 2) bottom = Math.max(bottom, r.bottom);
  }
  return bottom;
}

function useTopOffset(count: number): number {
  const [top, setTop] = useState(EDGE);
  useLayoutEffect(() => {
    if (count === 0) return;
    const measure = () => setTop(Math.round(chromeBottom()) + EDGE / 2 || EDGE);
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [count]);
  return top;
}

const KIND_STYLE: Record<ToastKind, string> = {
  success: 'border-green-600 text-green-900',
  error: 'border-red-600 text-red-900',
  warning: 'border-amber-500 text-amber-900',
  info: 'border-sky-600 text-sky-900',
  default: 'border-slate-400 text-slate-900',
};

function kindOf(t: Toast): ToastKind {
  const k = t.className?.replace(/^toast-/, '') as ToastKind | undefined;
  return k && k in KIND_STYLE ? k : 'default';
}

function KindIcon({ kind }: { kind: ToastKind }) {
  if (kind === 'success') return <CheckIcon className="h-5 w-5 shrink-0 text-green-800" />;
  if (kind === 'error') return <ErrorIcon className="h-5 w-5 shrink-0 text-red-800" />;
  if (kind === 'warning') return <WarningIcon className="h-5 w-5 shrink-0 text-amber-500" />;
  if (kind === 'info') return <InfoIcon className="h-5 w-5 shrink-0 text-sky-800" />;
  return null;
}

function ToastItem({
  t,
  offset,
  top,
  onHeight,
  onDismiss,
}: {
  t: Toast;
  offset: number;
  top: boolean;
  onHeight: (id: string, h: number) => void;
  onDismiss: (id: string) => void;
}) {
  const { LL } = useI18nContext();
  const kind = kindOf(t);
  const [dx, setDx] = useState(0);
  const drag = useRef<{ startX: number; width: number; moved: boolean; pointerId: number } | null>(null);
  const suppressClick = useRef(false);

  const measure = useCallback(
    (el: HTMLDivElement | null) => {
      if (el) onHeight(t.id, el.getBoundingClientRect().height);
    },
    [onHeight, t.id],
  );

  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    drag.current = {
      startX: e.clientX,
      width: e.currentTarget.offsetWidth,
      moved: false,
      pointerId: e.pointerId,
    };
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId) return;
    const delta = e.clientX - d.startX;
    if (!d.moved && Math.abs(delta) > 4) {
      d.moved = true;
      e.currentTarget.setPointerCapture(e.pointerId);
    }
    if (d.moved) setDx(delta);
  };
  const onPointerUp = (e: ReactPointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    drag.current = null;
    if (!d || !d.moved) return;
    suppressClick.current = true;
    const delta = e.clientX - d.startX;
    if (Math.abs(delta) >= d.width * DRAG_DISMISS_RATIO) {
      setDx(Math.sign(delta) * d.width * 1.5);
      onDismiss(t.id);
    } else setDx(0);
  };

  const style: CSSProperties = {
    position: 'absolute',
    [top ? 'top' : 'bottom']: 0,
    transform: `translate(${dx}px, ${top ? offset : -offset}px)`,
    transition: drag.current?.moved ? 'none' : 'transform 230ms cubic-bezier(.21,1.02,.73,1), opacity 230ms',
    opacity: t.visible ? 1 - Math.min(Math.abs(dx) / 400, 0.7) : 0,
    pointerEvents: t.visible ? 'auto' : 'none',
    touchAction: 'pan-y',
  };

  return (
    <div
      ref={measure}
      style={style}
      data-toast-kind={kind}
      data-toast-id={t.id}
      className={`flex w-80 max-w-[calc(100vw-2rem)] cursor-pointer select-none items-start gap-3 rounded-md border-l-4 bg-white px-4 py-3 text-sm shadow-lg ${KIND_STYLE[kind]}`}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => {
        drag.current = null;
        setDx(0);
      }}
      onClick={() => {
        if (suppressClick.current) {
          suppressClick.current = false;
          return;
        }
        onDismiss(t.id);
      }}
      title={LL.common.toast.close()}
    >
      <KindIcon kind={kind} />
      <div {...t.ariaProps} className="flex-1 whitespace-pre-line break-words">
        {typeof t.message === 'function' ? t.message(t) : t.message}
      </div>
    </div>
  );
}

/** The host of every toast; mount once near the root. */
export function Toasts({ defaultPosition = 'top-right' }: { defaultPosition?: ToastPosition }) {
  const { toasts, handlers } = useToaster({ duration: TOAST_DURATION_MS });
  const { startPause, endPause, updateHeight, calculateOffset } = handlers;
  const { pausedAt } = useToasterStore();
  // The store's clock pauses for either reason and resumes only when neither holds. The store's
  // pause functions close over its state, so the latest ones are kept here and reconciled after
  // every render: a pause asked for before the store re-rendered is never lost.
  const pause = useRef({ hovered: false, blurred: false, pausedAt, startPause, endPause });
  const sync = useCallback(() => {
    const p = pause.current;
    const want = p.hovered || p.blurred;
    if (want && p.pausedAt === undefined) p.startPause();
    else if (!want && p.pausedAt !== undefined) p.endPause();
  }, []);
  useEffect(() => {
    Object.assign(pause.current, { pausedAt, startPause, endPause });
    sync();
  }, [pausedAt, startPause, endPause, sync]);
  useEffect(() => {
    const onBlur = () => {
      pause.current.blurred = true;
      sync();
    };
    const onFocus = () => {
      pause.current.blurred = false;
      sync();
    };
    const onVisibility = () => (document.hidden ? onBlur() : document.hasFocus() && onFocus());
    pause.current.blurred = !document.hasFocus();
    sync();
    window.addEventListener('blur', onBlur);
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('blur', onBlur);
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [sync]);

  // A pause started by the hover of a toast that then left (closed under the pointer) must end.
  useEffect(() => {
    if (toasts.every((t) => !t.visible) && pause.current.hovered) {
      pause.current.hovered = false;
      sync();
    }
  }, [toasts, sync]);

  const dismiss = useCallback((id: string) => hotToast.dismiss(id), []);
  const topOffset = useTopOffset(toasts.length);

  return (
    <>
      {TOAST_POSITIONS.map((position) => {
        const here = toasts.filter((t) => (t.position ?? defaultPosition) === position);
        if (here.length === 0) return null;
        const top = position.startsWith('top');
        const align = position.endsWith('left')
          ? 'left-4'
          : position.endsWith('right')
            ? 'right-4'
            : 'left-1/2 -translate-x-1/2';
        return (
          <section
            key={position}
            data-toast-position={position}
            style={top ? { top: topOffset } : undefined}
            className={`pointer-events-none fixed z-[60] w-80 max-w-[calc(100vw-2rem)] ${top ? '' : 'bottom-4'} ${align}`}
            onMouseEnter={() => {
              pause.current.hovered = true;
              sync();
            }}
            onMouseLeave={() => {
              pause.current.hovered = false;
              sync();
            }}
          >
            {here.map((t) => (
              <ToastItem
                key={t.id}
                t={t}
                top={top}
                offset={calculateOffset(t, { reverseOrder: !top, gutter: GUTTER, defaultPosition })}
                onHeight={updateHeight}
                onDismiss={dismiss}
              />
            ))}
          </section>
        );
      })}
    </>
  );
}
