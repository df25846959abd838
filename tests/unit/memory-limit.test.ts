import { describe, expect, it } from 'vitest';
import { MemoryLimiter } from '../../server/http/memory-limit';

// The answer limits' counters (server/http/memory-limit.ts): fixed windows per key, every key of a
// call counted, and finished windows forgotten.

describe('MemoryLimiter', () => {
  it('allows max hits a window per key and refuses the next, until the window has passed', () => {
    const limiter = new MemoryLimiter(60_000);
    const limits = [{ key: 'r:1', max: 2 }];
    expect(limiter.hit(limits, 0)).toBe(true);
    expect(limiter.hit(limits, 1)).toBe(true);
    expect(limiter.hit(limits, 2)).toBe(false);
    expect(limiter.hit(limits, 59_999)).toBe(false);
    expect(limiter.hit(limits, 60_000)).toBe(true);
  });

  it('counts every key of a call, and one key past its limit refuses the call', () => {
    const limiter = new MemoryLimiter(60_000);
    const address = { key: 'ip:a', max: 3 };
    expect(limiter.hit([{ key: 'r:1', max: 10 }, address], 0)).toBe(true);
    expect(limiter.hit([{ key: 'r:2', max: 10 }, address], 0)).toBe(true);
    expect(limiter.hit([{ key: 'r:3', max: 10 }, address], 0)).toBe(true);
    expect(limiter.hit([{ key: 'r:4', max: 10 }, address], 0)).toBe(false);
    // Another address is not affected.
    expect(
      limiter.hit(
        [
          { key: 'r:4', max: 10 },
          { key: 'ip:b', max: 3 },
        ],
        0,
      ),
    ).toBe(true);
  });

  it('forgets finished windows, so memory holds only the keys of the last window', () => {
    const limiter = new MemoryLimiter(1000);
    for (let i = 0; i < 100; i++) limiter.hit([{ key: `old:${i}`, max: 1 }], 0);
    limiter.hit([{ key: 'new', max: 1 }], 1500);
    const size = (limiter as unknown as { windows: Map<string, unknown> }).windows.size;
    expect(size).toBe(1);
  });
});
