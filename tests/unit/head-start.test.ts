import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { takeHeadStart, type HeadStart } from '../../src/views/editor/headStart';
import { headStart } from '../../src/views/editor/headStartRun';
import { copyStamp, widthBand } from '../../src/db/openingPicture';

// The HTML's head start (issue 34) leaves its read of the local copy on the page; the start-up takes
// it for the project and user it opens, once. Anything else must not be handed a read of another
// project's or another user's copy.

describe('the head start read, taken by the start-up', () => {
  const read = Promise.resolve(null);
  beforeEach(() => {
    (globalThis as { window?: unknown }).window = {};
  });
  afterEach(() => {
    delete (globalThis as { window?: unknown }).window;
  });
  const leave = (h: HeadStart) =>
    ((globalThis as unknown as { window: Window }).window.__projectHeadStart = h);

  it('hands out the read for the same project and user, once', () => {
    leave({ pid: 3, userId: 7, local: read });
    expect(takeHeadStart(3, 7)).toBe(read);
    expect(takeHeadStart(3, 7)).toBeNull();
  });

  it("never hands out another project's or another user's read, and forgets it", () => {
    leave({ pid: 3, userId: 7, local: read });
    expect(takeHeadStart(4, 7)).toBeNull();
    expect(takeHeadStart(3, 7)).toBeNull();
    leave({ pid: 3, userId: 7, local: read });
    expect(takeHeadStart(3, 8)).toBeNull();
  });

  it('answers null when the page had no head start', () => {
    expect(takeHeadStart(3, 7)).toBeNull();
    delete (globalThis as { window?: unknown }).window;
    expect(takeHeadStart(3, 7)).toBeNull();
  });
});

describe("the head start's preloads", () => {
  // The page as the inline script sees it on /project?pid=3, signed in, in a language chosen before.
  const links: { rel: string; href: string }[] = [];
  const stored = new Map<string, string>();
  const globals = [
    'window',
    'location',
    'localStorage',
    'document',
    'requestAnimationFrame',
    'performance',
    'PerformanceObserver',
  ] as const;
  const appended: { id: string; innerHTML: string; inert: boolean }[] = [];
  const frames: (() => void)[] = [];
  /** The paint timing's observers: what they asked for, and how to hand them entries. */
  const observers: { types: string[]; take: (names: string[]) => void; connected: boolean }[] = [];
  class FakePerformanceObserver {
    private seen: { types: string[]; take: (names: string[]) => void; connected: boolean };
    constructor(callback: (list: { getEntriesByName: (n: string) => unknown[] }) => void) {
      this.seen = {
        types: [],
        connected: false,
        take: (names) => {
          if (this.seen.connected) callback({ getEntriesByName: (n) => names.filter((x) => x === n) });
        },
      };
      observers.push(this.seen);
    }
    observe(o: { type: string }) {
      this.seen.types.push(o.type);
      this.seen.connected = true;
    }
    disconnect() {
      this.seen.connected = false;
    }
  }
  beforeEach(() => {
    links.length = 0;
    stored.clear();
    stored.set('auth', JSON.stringify({ accessToken: 'a', refreshToken: 'r', userId: 7 }));
    appended.length = 0;
    frames.length = 0;
    observers.length = 0;
    Object.assign(globalThis, {
      PerformanceObserver: FakePerformanceObserver,
      window: { innerWidth: 1440 },
      requestAnimationFrame: (f: () => void) => void frames.push(f),
      performance: { mark: () => {} },
      location: { pathname: '/project', search: '?pid=3' },
      localStorage: {
        getItem: (k: string) => stored.get(k) ?? null,
        setItem: (k: string, v: string) => void stored.set(k, v),
      },
      document: {
        visibilityState: 'visible',
        createElement: () => ({ rel: '', href: '', crossOrigin: null, style: {}, setAttribute: () => {} }),
        head: { appendChild: (l: { rel: string; href: string }) => void links.push(l) },
        documentElement: { appendChild: (d: (typeof appended)[number]) => void appended.push(d) },
      },
    });
  });
  afterEach(() => {
    for (const g of globals) delete (globalThis as Record<string, unknown>)[g];
  });
  const dictionaries = { en: ['/assets/i18n-en-editor.js'], ru: ['/assets/i18n-ru-editor.js'] };

  it("asks for the editor's chunks and the dictionary of the stored language only", () => {
    stored.set('app-settings', JSON.stringify({ locale: 'ru' }));
    headStart(['/assets/EditorPage.js'], dictionaries);
    expect(links.map((l) => [l.rel, l.href])).toEqual([
      ['modulepreload', '/assets/EditorPage.js'],
      ['modulepreload', '/assets/i18n-ru-editor.js'],
    ]);
    expect(takeHeadStart(3, 7)).not.toBeNull();
  });

  it('shows the opening picture of the stored copy first, and asks for the chunks once its frame has been presented', () => {
    vi.useFakeTimers();
    try {
      stored.set('app-settings', JSON.stringify({ locale: 'en' }));
      const text = '{"questionnaires":[]}';
      stored.set('editor-copy:3', `7:${copyStamp(text)}`);
      const picture = {
        userId: 7,
        locale: 'en',
        band: widthBand(1440),
        stamp: copyStamp(text),
        bodyClass: '',
        html: '<p>rows</p>',
      };
      stored.set('editor-picture:3', JSON.stringify(picture));
      headStart(['/assets/EditorPage.js'], dictionaries);
      expect(appended.map((d) => [d.id, d.innerHTML, d.inert])).toEqual([
        ['editor-picture', '<p>rows</p>', true],
      ]);
      expect(links).toEqual([]);
      expect(takeHeadStart(3, 7)).not.toBeNull();
      // Not at the next frame (its raster is still to come), not for a first paint with no content:
      // once the first contentful frame, the picture, has been presented.
      for (const f of frames) f();
      vi.advanceTimersByTime(100);
      expect(observers.map((o) => o.types)).toEqual([['paint']]);
      observers[0].take(['first-paint']);
      vi.advanceTimersByTime(10);
      expect(links).toEqual([]);
      observers[0].take(['first-contentful-paint']);
      vi.advanceTimersByTime(0);
      expect(links.map((l) => l.href)).toEqual(['/assets/EditorPage.js', '/assets/i18n-en-editor.js']);
      // Once: the observer is let go, and the wait's own timer asks for nothing more.
      expect(observers[0].connected).toBe(false);
      vi.advanceTimersByTime(1000);
      expect(links).toHaveLength(2);
      // With no presented frame at all (the tab hidden meanwhile), they are asked for 400 ms on.
      links.length = 0;
      appended.length = 0;
      headStart(['/assets/EditorPage.js'], dictionaries);
      expect(appended).toHaveLength(1);
      vi.advanceTimersByTime(399);
      expect(links).toEqual([]);
      vi.advanceTimersByTime(1);
      vi.advanceTimersByTime(1);
      expect(links.map((l) => l.href)).toEqual(['/assets/EditorPage.js', '/assets/i18n-en-editor.js']);
      // A picture of another copy is not shown, and the chunks are asked for at once.
      appended.length = 0;
      links.length = 0;
      stored.set('editor-copy:3', `7:${copyStamp('{"questionnaires":[1]}')}`);
      headStart(['/assets/EditorPage.js'], dictionaries);
      expect(appended).toEqual([]);
      expect(links.map((l) => l.href)).toEqual(['/assets/EditorPage.js', '/assets/i18n-en-editor.js']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks for nothing off /project or signed out', () => {
    (globalThis as unknown as { location: object }).location = { pathname: '/projects', search: '' };
    headStart(['/assets/EditorPage.js'], dictionaries);
    (globalThis as unknown as { location: object }).location = { pathname: '/project', search: '?pid=3' };
    stored.delete('auth');
    headStart(['/assets/EditorPage.js'], dictionaries);
    expect(links).toEqual([]);
    expect(takeHeadStart(3, 7)).toBeNull();
  });
});
