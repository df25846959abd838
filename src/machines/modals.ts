import { assertEvent, assign, setup } from 'xstate';

// The modal queue (spec section 2, "Modals are queued and shown one at a time"). The machine only
// orders requests: what a modal shows is opaque `data` for the host, and whoever opened it hears
// the result through `onClose`. Opening an id that is already shown or waiting does nothing, so a
// double click cannot stack two copies of the same dialog.

export interface ModalRequest<TData = unknown> {
  id: string;
  data: TData;
  /** Called once, when this modal leaves the screen or the queue. */
  onClose?: (result: unknown) => void;
}

export interface ModalsContext {
  current: ModalRequest | null;
  queue: ModalRequest[];
}

export type ModalsEvent =
  | { type: 'modal.open'; modal: ModalRequest }
  /** Closes the shown modal with a result, or drops a waiting one (its result is `undefined`). */
  | { type: 'modal.close'; id: string; result?: unknown }
  /** Drops everything (sign-out): every opener hears `undefined`. */
  | { type: 'modal.clear' };

function isKnown(context: ModalsContext, id: string): boolean {
  return context.current?.id === id || context.queue.some((m) => m.id === id);
}

export const modalsMachine = setup({
  types: {
    context: {} as ModalsContext,
    events: {} as ModalsEvent,
  },
  guards: {
    isNew: ({ context, event }) => {
      assertEvent(event, 'modal.open');
      return !isKnown(context, event.modal.id);
    },
    closesCurrent: ({ context, event }) => {
      assertEvent(event, 'modal.close');
      return context.current?.id === event.id;
    },
    isQueued: ({ context, event }) => {
      assertEvent(event, 'modal.close');
      return context.queue.some((m) => m.id === event.id);
    },
  },
  actions: {
    show: assign({
      current: ({ event }) => {
        assertEvent(event, 'modal.open');
        return event.modal;
      },
    }),
    enqueue: assign({
      queue: ({ context, event }) => {
        assertEvent(event, 'modal.open');
        return [...context.queue, event.modal];
      },
    }),
    notifyCurrent: ({ context, event }) => {
      assertEvent(event, 'modal.close');
      context.current?.onClose?.(event.result);
    },
    showNext: assign({
      current: ({ context }) => context.queue[0] ?? null,
      queue: ({ context }) => context.queue.slice(1),
    }),
    notifyQueued: ({ context, event }) => {
      assertEvent(event, 'modal.close');
      context.queue.find((m) => m.id === event.id)?.onClose?.(undefined);
    },
    dropQueued: assign({
      queue: ({ context, event }) => {
        assertEvent(event, 'modal.close');
        return context.queue.filter((m) => m.id !== event.id);
      },
    }),
    notifyAll: ({ context }) => {
      for (const m of [context.current, ...context.queue]) m?.onClose?.(undefined);
    },
    clearAll: assign({ current: null, queue: [] }),
  },
}).createMachine({
  id: 'modals',
  context: { current: null, queue: [] },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'modal.open': { guard: 'isNew', target: 'showing', actions: 'show' },
      },
    },
    showing: {
      on: {
        'modal.open': { guard: 'isNew', actions: 'enqueue' },
        'modal.close': [
          {
            guard: 'closesCurrent',
            target: 'showing',
            reenter: true,
            actions: ['notifyCurrent', 'showNext'],
          },
          { guard: 'isQueued', actions: ['notifyQueued', 'dropQueued'] },
        ],
        'modal.clear': { target: 'idle', actions: ['notifyAll', 'clearAll'] },
      },
      always: { guard: ({ context }) => context.current === null, target: 'idle' },
    },
  },
});
