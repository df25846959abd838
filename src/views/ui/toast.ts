import toast, { type ToastPosition } from 'react-hot-toast';
import { wantToastHost } from './toastHost';

// Notifications of spec sections 1 and 9: success, error, warning, info and default. Timing,
// limit, order, pausing, click-to-close and drag-to-dismiss live in the host (Toasts.tsx); this
// module only says what kind a message is and where it goes (top-right unless asked otherwise).

export type ToastKind = 'success' | 'error' | 'warning' | 'info' | 'default';

export const TOAST_POSITIONS: readonly ToastPosition[] = [
  'top-left',
  'top-center',
  'top-right',
  'bottom-left',
  'bottom-center',
  'bottom-right',
];

export interface NotifyOptions {
  position?: ToastPosition;
  /** A stable id replaces an earlier toast with the same id instead of stacking a copy. */
  id?: string;
  /** Milliseconds; Infinity keeps it until closed. */
  duration?: number;
}

/** The host reads the kind back from this class name. */
export const kindClass = (kind: ToastKind) => `toast-${kind}`;

function show(kind: ToastKind, msg: string, opts: NotifyOptions = {}): string {
  wantToastHost();
  const options = {
    className: kindClass(kind),
    position: opts.position,
    id: opts.id,
    duration: opts.duration,
    // Errors interrupt a screen reader; everything else waits politely.
    ariaProps:
      kind === 'error'
        ? ({ role: 'alert', 'aria-live': 'assertive' } as const)
        : ({ role: 'status', 'aria-live': 'polite' } as const),
  };
  if (kind === 'success') return toast.success(msg, options);
  if (kind === 'error') return toast.error(msg, options);
  return toast(msg, options);
}

export const notify = {
  success: (msg: string, opts?: NotifyOptions) => void show('success', msg, opts),
  error: (msg: string, opts?: NotifyOptions) => void show('error', msg, opts),
  warning: (msg: string, opts?: NotifyOptions) => void show('warning', msg, opts),
  info: (msg: string, opts?: NotifyOptions) => void show('info', msg, opts),
  show: (msg: string, opts?: NotifyOptions) => void show('default', msg, opts),
  /** Closes one toast, or all of them. */
  dismiss: (id?: string) => toast.dismiss(id),
};

/** Like `notify.*` but answers the toast's id (for a toast that a later event replaces). */
export const showToast = show;
