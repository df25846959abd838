// Fixed-window counters kept in this process's memory, for limits checked on every call of a hot
// path (answer submission) where a database counter costs a round trip and, on PostgreSQL, a row
// lock that every request from one address queues on. The trade-off: each server process counts on
// its own (N processes allow N times the limit) and a restart starts the windows again. Limits that
// guard secrets (failed logins, SDK credentials) stay in the database (server/http/ratelimit.ts).

interface Window {
  start: number;
  count: number;
}

export class MemoryLimiter {
  private windows = new Map<string, Window>();
  private sweptAt = 0;

  constructor(private readonly windowMs: number) {}

  /** Adds one to each key's counter; false when any of them is now past its limit. */
  hit(limits: { key: string; max: number }[], now = Date.now()): boolean {
    this.sweep(now);
    let ok = true;
    for (const { key, max } of limits) {
      let w = this.windows.get(key);
      if (!w || now - w.start >= this.windowMs) {
        w = { start: now, count: 0 };
        this.windows.set(key, w);
      }
      w.count++;
      if (w.count > max) ok = false;
    }
    return ok;
  }

  /** Drops finished windows once per window, so memory stays bounded by the keys of one window. */
  private sweep(now: number) {
    if (now - this.sweptAt < this.windowMs) return;
    this.sweptAt = now;
    for (const [key, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(key);
  }
}
