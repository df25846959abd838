import { assertEvent, assign, setup } from 'xstate';
import { GUIDE_CLEAR_DELAY_MS, type GuideId } from '../domain/guides';

// The helper guide dialog (spec section 2): image slides with Next, 'Do by myself' and End. While
// the dialog fades out its slides stay, then they are cleared after 500 ms; opening a guide again
// during that time shows it at once. Remembering that a guide was opened is an effect the app
// provides (`remember`, localStorage `app-helpers`), so the chart stays testable without storage.

export interface GuideContext {
  guide: GuideId | null;
  slides: string[];
  index: number;
}

export type GuideEvent =
  | { type: 'guide.open'; guide: GuideId; slides: string[] }
  | { type: 'guide.next' }
  /** 'Do by myself': leave the guide before its end. */
  | { type: 'guide.skip' }
  /** End, on the last slide. */
  | { type: 'guide.end' };

export const guideMachine = setup({
  types: {
    context: {} as GuideContext,
    events: {} as GuideEvent,
  },
  guards: {
    hasSlides: ({ event }) => {
      assertEvent(event, 'guide.open');
      return event.slides.length > 0;
    },
    hasNext: ({ context }) => context.index < context.slides.length - 1,
    onLast: ({ context }) => context.index === context.slides.length - 1,
  },
  actions: {
    load: assign(({ event }) => {
      assertEvent(event, 'guide.open');
      return { guide: event.guide, slides: event.slides, index: 0 };
    }),
    next: assign({ index: ({ context }) => context.index + 1 }),
    clear: assign({ guide: null, slides: [], index: 0 }),
    remember: (_, _params: { guide: GuideId }) => {
      /* provided by the app */
    },
  },
  delays: {
    clearDelay: GUIDE_CLEAR_DELAY_MS,
  },
}).createMachine({
  id: 'guide',
  context: { guide: null, slides: [], index: 0 },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'guide.open': { guard: 'hasSlides', target: 'open', actions: 'load' },
      },
    },
    open: {
      entry: { type: 'remember', params: ({ context }) => ({ guide: context.guide! }) },
      on: {
        'guide.next': { guard: 'hasNext', actions: 'next' },
        'guide.skip': { target: 'closing' },
        'guide.end': { guard: 'onLast', target: 'closing' },
      },
    },
    closing: {
      after: { clearDelay: { target: 'closed', actions: 'clear' } },
      on: {
        'guide.open': { guard: 'hasSlides', target: 'open', actions: 'load' },
      },
    },
  },
});
