import { lazy, Suspense, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { createActor } from 'xstate';
import { modalsMachine, type ModalRequest } from '../../machines/modals';
import { useRestoreFocus } from './useRestoreFocus';

// The modal host of spec section 2. One queue actor for the whole app: `openModal` and `confirm`
// are plain functions that any page, machine action or error handler can await, so the actor has
// to outlive every component and cannot be spawned by one of them. The dialog itself (Headless UI)
// loads with the first modal, keeping it out of the /login bundle.

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
    const request: ModalRequest<ModalContent> = {
      id,
      data: content,
      onClose: (r) => resolve(r as T | undefined),
    };
    modalsActor.send({ type: 'modal.open', modal: request });
  });
}

/** Opens a modal showing `render(close)`; resolves once it has been closed. */
export function openModal(opts: { title: string; render: (close: () => void) => ReactNode }): Promise<void> {
  return enqueueModal<void>({ title: opts.title, render: (close) => opts.render(() => close()) }).then(
    () => undefined,
  );
}

/** Closes every modal (on sign-out), answering each opener as if dismissed. */
export function clearModals(): void {
  modalsActor.send({ type: 'modal.clear' });
}

const ModalDialog = lazy(() => import('./ModalDialog'));

/** Mount once: shows the head of the queue while there is one. */
export function ModalHost() {
  const open = useSelector(modalsActor, (s) => s.context.current !== null);
  useRestoreFocus(open);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <ModalDialog />
    </Suspense>
  );
}
