import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useSelector } from '@xstate/react';
import { createActor } from 'xstate';
import { modalsMachine, type ModalRequest } from '../../machines/modals';
import { useI18nContext } from '../../i18n/i18n-react';
import { CloseIcon } from './icons';

// The modal host of spec section 2. One queue actor for the whole app: `openModal` and `confirm`
// are plain functions that any page, machine action or error handler can await, so the actor has
// to outlive every component and cannot be spawned by one of them.

export interface ModalContent {
  title: string;
  /** `close(result)` ends this modal; the opener gets `result`. */
  render: (close: (result?: unknown) => void) => ReactNode;
  /** What the close icon and Escape answer (a confirmation answers `false`). */
  dismissResult?: unknown;
  /** A wider panel for forms and tables. */
  wide?: boolean;
}

export const modalsActor = createActor(modalsMachine).start();

let counter = 0;

/** Queues a modal and resolves with whatever it was closed with. */
export function enqueueModal<T>(content: ModalContent, id = `modal-${++counter}`): Promise<T | undefined> {
  return new Promise((resolve) => {
    const request: ModalRequest<ModalContent> = { id, data: content, onClose: (r) => resolve(r as T | undefined) };
    modalsActor.send({ type: 'modal.open', modal: request });
  });
}

/** Opens a modal showing `render(close)`; resolves once it has been closed. */
export function openModal(opts: { title: string; render: (close: () => void) => ReactNode }): Promise<void> {
  return enqueueModal<void>({ title: opts.title, render: (close) => opts.render(() => close()) }).then(() => undefined);
}

/** Closes every modal (on sign-out), answering each opener as if dismissed. */
export function clearModals(): void {
  modalsActor.send({ type: 'modal.clear' });
}

/**
 * Shows the head of the queue in one persistent Headless UI dialog: a click outside does nothing
 * (typed content is never lost by a stray click); the close icon and Escape dismiss it. The dialog
 * stays mounted while queued modals follow each other, so focus returns to where it was before the
 * first one opened.
 */
export function ModalHost() {
  const { LL } = useI18nContext();
  const current = useSelector(modalsActor, (s) => s.context.current as ModalRequest<ModalContent> | null);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!current) return;
    // Each queued modal starts with focus on its first control, as a freshly opened dialog would.
    const id = requestAnimationFrame(() => {
      const root = panel.current;
      const el =
        root?.querySelector<HTMLElement>('[data-autofocus]') ??
        root?.querySelector<HTMLElement>('input:not([disabled]), select, textarea, button:not([disabled]):not([data-close])');
      el?.focus();
    });
    return () => cancelAnimationFrame(id);
  }, [current?.id]); // eslint-disable-line react-hooks/exhaustive-deps -- refocus only when another modal comes up

  const close = (result?: unknown) => {
    if (current) modalsActor.send({ type: 'modal.close', id: current.id, result });
  };
  const dismiss = () => close(current?.data.dismissResult);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      dismiss();
    }
  };

  return (
    <Dialog open={current !== null} onClose={() => {}} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        {current && (
          <DialogPanel
            ref={panel}
            onKeyDown={onKeyDown}
            data-modal-id={current.id}
            className={`max-h-[90vh] w-full overflow-auto rounded-lg bg-white shadow-xl ${current.data.wide ? 'max-w-3xl' : 'max-w-md'}`}
          >
            <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-5 py-3">
              <DialogTitle className="text-lg font-semibold text-slate-800">{current.data.title}</DialogTitle>
              <button
                type="button"
                data-close
                aria-label={LL.common.close()}
                title={LL.common.close()}
                onClick={dismiss}
                className="-mr-2 rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
              >
                <CloseIcon />
              </button>
            </div>
            <div className="px-5 py-4">{current.data.render(close)}</div>
          </DialogPanel>
        )}
      </div>
    </Dialog>
  );
}
