import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useSelector } from '@xstate/react';
import type { ModalRequest } from '../../machines/modals';
import { useI18nContext } from '../../i18n/i18n-react';
import { CloseIcon } from './icons';
import { modalsActor, type ModalContent } from './modal';

/**
 * Shows the head of the queue in one persistent Headless UI dialog: a click outside does nothing
 * (typed content is never lost by a stray click); the close icon and Escape dismiss it. The dialog
 * stays mounted while queued modals follow each other, so focus returns to where it was before the
 * first one opened.
 */
export default function ModalDialog() {
  const { LL } = useI18nContext();
  const current = useSelector(modalsActor, (s) => s.context.current as ModalRequest<ModalContent> | null);
  const panel = useRef<HTMLDivElement>(null);

  // Refocus only when another modal comes up, not on every render of the same one.
  const currentId = current?.id;
  useEffect(() => {
    if (currentId === undefined) return;
    // Each queued modal starts with focus on its first control, as a freshly opened dialog would.
    // The very first dialog renders its panel a few frames late (Headless UI mounts its portal
    // first, then focuses the dialog itself), so wait for the panel instead of giving up.
    let id = 0;
    let frames = 0;
    const focusFirst = () => {
      const root = panel.current;
      if (!root) {
        if (++frames < 30) id = requestAnimationFrame(focusFirst);
        return;
      }
      const el =
        root.querySelector<HTMLElement>('[data-autofocus]') ??
        root.querySelector<HTMLElement>(
          'input:not([disabled]), select, textarea, button:not([disabled]):not([data-close])',
        );
      el?.focus();
    };
    id = requestAnimationFrame(focusFirst);
    return () => cancelAnimationFrame(id);
  }, [currentId]);

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
    // Escape is handled on the dialog itself, not only on the panel: focus may sit on the dialog's
    // own element (Headless UI's initial focus), whose key presses never reach the panel.
    <Dialog open={current !== null} onClose={() => {}} onKeyDown={onKeyDown} className="fixed inset-0 z-50">
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        {current && (
          <DialogPanel
            ref={panel}
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
                className="-mr-2 rounded p-1 text-slate-600 hover:bg-slate-100 hover:text-slate-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
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
