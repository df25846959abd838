import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { assign, createMachine } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { installStorage } from '../unit/memory-storage';
import { GUIDES, guideForPage, guideSlides, type GuideId } from '../../src/domain/guides';
import { readSettings } from '../../src/i18n/setup';

// Model-based test of the helper guides (spec section 2): slides one at a time with Next, 'Do by
// myself' and End; slides cleared 500 ms after closing, not before; a guide is remembered in
// localStorage `app-helpers` once opened. Every shortest path drives the app's own guide actor
// (src/views/shell/guide.tsx) with fake timers and checks what it shows and what it stored.

const storage = installStorage();
const { guideActor, openGuide, openedGuides, HELPERS_KEY } = await import('../../src/views/shell/guide');

type G = 'lk/demo-researcher' | 'project-editor/direct-link';
interface ModelContext {
  guide: G | null;
  index: number;
  late: boolean;
  opened: G[];
}

const openTo = (g: G) => ({
  target: '#guideModel.open',
  actions: assign(({ context }: { context: ModelContext }) => ({
    guide: g,
    index: 0,
    late: false,
    opened: context.opened.includes(g) ? context.opened : [...context.opened, g].sort(),
  })),
});
const last = (c: ModelContext) => c.index === GUIDES[c.guide!].slides - 1;

const model = createMachine({
  id: 'guideModel',
  types: {} as { context: ModelContext },
  context: { guide: null, index: 0, late: false, opened: [] },
  initial: 'closed',
  states: {
    closed: {
      on: { OPEN_DEMO: openTo('lk/demo-researcher'), OPEN_DIRECT: openTo('project-editor/direct-link') },
    },
    open: {
      on: {
        NEXT: {
          guard: ({ context }) => !last(context),
          actions: assign({ index: ({ context }) => context.index + 1 }),
        },
        SKIP: { target: 'closing' },
        END: { guard: ({ context }) => last(context), target: 'closing' },
      },
    },
    closing: {
      on: {
        WAIT_499_MS: { guard: ({ context }) => !context.late, actions: assign({ late: true }) },
        WAIT_1_MS: {
          guard: ({ context }) => context.late,
          target: 'closed',
          actions: assign({ guide: null, index: 0, late: false }),
        },
        OPEN_DEMO: openTo('lk/demo-researcher'),
        OPEN_DIRECT: openTo('project-editor/direct-link'),
      },
    },
  },
});

beforeAll(() => {
  vi.useFakeTimers();
});
afterAll(() => {
  vi.useRealTimers();
});

function reset() {
  if (guideActor.getSnapshot().matches('open')) guideActor.send({ type: 'guide.skip' });
  vi.advanceTimersByTime(1000);
  storage.clear();
}

function checkShown(state: { context: ModelContext }) {
  const { context } = guideActor.getSnapshot();
  const m = state.context;
  expect(context.guide).toBe(m.guide);
  expect(context.index).toBe(m.index);
  expect(context.slides).toEqual(m.guide ? guideSlides(m.guide, readSettings().locale) : []);
  expect(Object.keys(openedGuides()).sort()).toEqual(m.opened);
}

const testModel = createTestModel(model);

describe('guide dialog', () => {
  const paths = testModel.getShortestPaths();

  for (const path of paths) {
    it(path.description, async () => {
      reset();
      await path.test({
        states: {
          closed: (state) => {
            expect(guideActor.getSnapshot().value).toBe('closed');
            checkShown(state);
          },
          open: (state) => {
            expect(guideActor.getSnapshot().value).toBe('open');
            checkShown(state);
          },
          closing: (state) => {
            // Closed on screen, but the slides stay until 500 ms have passed.
            expect(guideActor.getSnapshot().value).toBe('closing');
            checkShown(state);
          },
        },
        events: {
          OPEN_DEMO: () => openGuide('lk/demo-researcher'),
          OPEN_DIRECT: () => openGuide('project-editor/direct-link'),
          NEXT: () => guideActor.send({ type: 'guide.next' }),
          SKIP: () => guideActor.send({ type: 'guide.skip' }),
          END: () => guideActor.send({ type: 'guide.end' }),
          WAIT_499_MS: () => void vi.advanceTimersByTime(499),
          WAIT_1_MS: () => void vi.advanceTimersByTime(1),
        },
      });
    });
  }

  it('ignores End before the last slide and Next on the last one', () => {
    reset();
    openGuide('lk/demo-researcher');
    guideActor.send({ type: 'guide.end' });
    expect(guideActor.getSnapshot().value).toBe('open');
    for (let i = 0; i < 10; i++) guideActor.send({ type: 'guide.next' });
    expect(guideActor.getSnapshot().context.index).toBe(5);
  });

  it('keeps the first time a guide was opened, and survives a damaged record', () => {
    reset();
    vi.setSystemTime(1_000);
    openGuide('lk/demo-researcher');
    guideActor.send({ type: 'guide.skip' });
    vi.advanceTimersByTime(500);
    vi.setSystemTime(9_000);
    openGuide('lk/demo-researcher');
    expect(JSON.parse(storage.getItem(HELPERS_KEY)!)).toEqual({ 'lk/demo-researcher': 1_000 });
    storage.setItem(HELPERS_KEY, '{not json');
    expect(openedGuides()).toEqual({});
    storage.setItem(
      HELPERS_KEY,
      JSON.stringify({ 'lk/demo-researcher': 5, bogus: 1, 'project-editor/default': 'x' }),
    );
    expect(openedGuides()).toEqual({ 'lk/demo-researcher': 5 });
  });
});

describe('guide data', () => {
  it('has the three spec guides with 8, 10 and 6 slides', () => {
    const counts = Object.fromEntries(Object.entries(GUIDES).map(([id, g]) => [id, g.slides]));
    expect(counts).toEqual({
      'project-editor/direct-link': 8,
      'project-editor/default': 10,
      'lk/demo-researcher': 6,
    });
    expect(guideSlides('project-editor/default', 'en')[9]).toBe('/guides/project-editor/default/en/10.webp');
  });

  it('has a picture for every slide in public/', async () => {
    const fs = await import('node:fs');
    for (const id of Object.keys(GUIDES) as GuideId[]) {
      for (const src of guideSlides(id, 'ru')) expect(fs.existsSync(`public${src}`), src).toBe(true);
    }
  });

  it('picks the guide of a page', () => {
    expect(guideForPage('/profile')).toBe('lk/demo-researcher');
    expect(guideForPage('/project', 'default')).toBe('project-editor/default');
    expect(guideForPage('/project', 'directLink')).toBe('project-editor/direct-link');
  });
});
