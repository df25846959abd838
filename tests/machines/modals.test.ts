import { describe, expect, it } from 'vitest';
import { assign, createMachine } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { enqueueModal, modalsActor, openModal, clearModals } from '../../src/views/ui/modal';
import { confirm } from '../../src/views/ui/confirm';

// Model-based test of the modal queue (spec section 2: "Modals are queued and shown one at a time").
// The model below says what a user should see: which modal is up, which wait and in what order, and
// what each opener has been answered. Every shortest path to every model state drives the real
// queue through the app's own functions (enqueueModal, the host's close) and checks all of it.

type Id = 'a' | 'b' | 'c';
type Outcome = 'pending' | 'agree' | 'dismiss';
interface ModelContext {
  shown: Id | null;
  queue: Id[];
  outcomes: Partial<Record<Id, Outcome>>;
}

const known = (c: ModelContext, id: Id) => c.shown === id || c.queue.includes(id);

function openEvent(id: Id) {
  return [
    {
      guard: ({ context }: { context: ModelContext }) => !known(context, id) && context.shown === null,
      target: '.showing',
      actions: assign(({ context }: { context: ModelContext }) => ({
        shown: id,
        outcomes: { ...context.outcomes, [id]: 'pending' as Outcome },
      })),
    },
    {
      guard: ({ context }: { context: ModelContext }) => !known(context, id),
      actions: assign(({ context }: { context: ModelContext }) => ({
        queue: [...context.queue, id],
        outcomes: { ...context.outcomes, [id]: 'pending' as Outcome },
      })),
    },
  ];
}

function closeCurrent(outcome: Outcome) {
  return {
    guard: ({ context }: { context: ModelContext }) => context.shown !== null,
    actions: assign(({ context }: { context: ModelContext }) => ({
      shown: context.queue[0] ?? null,
      queue: context.queue.slice(1),
      outcomes: { ...context.outcomes, [context.shown!]: outcome },
    })),
  };
}

const model = createMachine({
  id: 'modalQueueModel',
  types: {} as { context: ModelContext },
  context: { shown: null, queue: [], outcomes: {} },
  type: 'parallel',
  states: { showing: {} },
  on: {
    OPEN_A: openEvent('a'),
    OPEN_B: openEvent('b'),
    OPEN_C: openEvent('c'),
    AGREE: closeCurrent('agree'),
    DISMISS: closeCurrent('dismiss'),
    DROP_LAST_WAITING: {
      guard: ({ context }) => context.queue.length > 0,
      actions: assign(({ context }) => ({
        queue: context.queue.slice(0, -1),
        outcomes: { ...context.outcomes, [context.queue[context.queue.length - 1]]: 'dismiss' as Outcome },
      })),
    },
    CLEAR: {
      actions: assign(({ context }) => {
        const outcomes = { ...context.outcomes };
        for (const id of [context.shown, ...context.queue]) if (id) outcomes[id] = 'dismiss';
        return { shown: null, queue: [], outcomes };
      }),
    },
  },
});

// The system under test: the app's queue, with what each opener was answered.
let outcomes: Partial<Record<Id, Outcome>> = {};
const tick = () => new Promise((r) => setTimeout(r, 0));

function open(id: Id) {
  outcomes[id] = 'pending';
  void enqueueModal<boolean>({ title: id, render: () => null, dismissResult: undefined }, id).then((r) => {
    outcomes[id] = r === true ? 'agree' : 'dismiss';
  });
}
function current() {
  return modalsActor.getSnapshot().context.current?.id ?? null;
}

const testModel = createTestModel(model);

describe('modal queue', () => {
  const paths = testModel.getShortestPaths();

  it('covers the whole model', () => {
    // Every arrangement of up to three modals (shown + waiting) and every answer history.
    expect(paths.length).toBeGreaterThan(100);
  });

  for (const path of paths) {
    it(path.description, async () => {
      clearModals();
      await tick();
      outcomes = {};
      await path.test({
        states: {
          showing: async (state) => {
            await tick();
            const snap = modalsActor.getSnapshot();
            expect(current()).toBe(state.context.shown);
            expect(snap.context.queue.map((m) => m.id)).toEqual(state.context.queue);
            expect(snap.matches(state.context.shown ? 'showing' : 'idle')).toBe(true);
            expect(outcomes).toEqual(state.context.outcomes);
          },
        },
        events: {
          OPEN_A: () => open('a'),
          OPEN_B: () => open('b'),
          OPEN_C: () => open('c'),
          AGREE: () => modalsActor.send({ type: 'modal.close', id: current()!, result: true }),
          DISMISS: () => modalsActor.send({ type: 'modal.close', id: current()!, result: undefined }),
          DROP_LAST_WAITING: () => {
            const queue = modalsActor.getSnapshot().context.queue;
            modalsActor.send({ type: 'modal.close', id: queue[queue.length - 1].id });
          },
          CLEAR: () => clearModals(),
        },
      });
    });
  }
});

describe('confirm() and openModal()', () => {
  it('answers true only for Agree; Cancel, the close icon and a cleared queue answer false', async () => {
    clearModals();
    const agreed = confirm({ title: 'Delete?' });
    modalsActor.send({ type: 'modal.close', id: current()!, result: true });
    expect(await agreed).toBe(true);

    const cancelled = confirm({ title: 'Delete?' });
    modalsActor.send({ type: 'modal.close', id: current()!, result: false });
    expect(await cancelled).toBe(false);

    const dismissed = confirm({ title: 'Delete?' });
    const content = modalsActor.getSnapshot().context.current!.data as { dismissResult: unknown };
    modalsActor.send({ type: 'modal.close', id: current()!, result: content.dismissResult });
    expect(await dismissed).toBe(false);

    const cleared = confirm({ title: 'Delete?' });
    clearModals();
    expect(await cleared).toBe(false);
  });

  it('queues a confirmation behind an open modal and shows it once that closes', async () => {
    clearModals();
    let closed = false;
    const modal = openModal({ title: 'Form', render: () => null }).then(() => (closed = true));
    const question = confirm({ title: 'Sure?', text: 'Really', agreeLabel: 'Yes', danger: true });
    const first = current();
    expect(modalsActor.getSnapshot().context.queue).toHaveLength(1);
    modalsActor.send({ type: 'modal.close', id: first! });
    await modal;
    expect(closed).toBe(true);
    expect(current()).not.toBe(first);
    expect((modalsActor.getSnapshot().context.current!.data as { title: string }).title).toBe('Sure?');
    modalsActor.send({ type: 'modal.close', id: current()!, result: true });
    expect(await question).toBe(true);
    expect(current()).toBeNull();
  });
});
