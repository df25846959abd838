import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { takeHeadStart, type HeadStart } from '../../src/views/editor/headStart';

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
