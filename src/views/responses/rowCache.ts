import type { Page } from '../../api/client';

// The rows of a list too long to hold (100 000 respondents), kept as the pages the reader has
// scrolled near. The table is virtual: it asks for the rows of the range on screen, and this store
// fetches the server pages that cover it (each once, a few at a time), keeps the most recently used
// ones, and forgets the rest. A new filter or sort is a new store; `refresh` drops every page and
// fetches the visible ones again (after an exclusion, say), keeping the old rows on screen until the
// new ones arrive so the table never blinks empty.

export interface RowCacheOptions<T> {
  pageSize: number;
  fetchPage: (page: number, signal: AbortSignal) => Promise<Page<T>>;
  /** Pages kept; the least recently asked for go first. */
  keep?: number;
  /** Requests in flight at once. */
  parallel?: number;
}

export interface RowCacheSnapshot {
  /** Rows the list has; null until the first page has answered. */
  total: number | null;
  /** Bumped on every change, so React sees a new snapshot. */
  version: number;
  error: string | null;
  loading: boolean;
}

export class RowCache<T> {
  private pages = new Map<number, T[]>();
  /** Pages from before a refresh, shown until their fresh copies arrive. */
  private stale = new Map<number, T[]>();
  private inFlight = new Map<number, AbortController>();
  private queue: number[] = [];
  private wanted = new Set<number>();
  /** The rows last asked for (pages follow from them once the count is known). */
  private requested: [number, number] = [0, 0];
  private listeners = new Set<() => void>();
  private snapshot: RowCacheSnapshot = { total: null, version: 0, error: null, loading: false };
  private generation = 0;
  private disposed = false;
  readonly pageSize: number;

  constructor(private readonly opts: RowCacheOptions<T>) {
    this.pageSize = opts.pageSize;
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = () => this.snapshot;

  private emit(patch: Partial<RowCacheSnapshot>) {
    this.snapshot = {
      ...this.snapshot,
      ...patch,
      loading: this.inFlight.size > 0 || this.queue.length > 0,
      version: this.snapshot.version + 1,
    };
    for (const l of this.listeners) l();
  }

  /** The row at `index`, when its page is here (a fresh copy, or the old one during a refresh). */
  rowAt(index: number): T | undefined {
    const page = Math.floor(index / this.pageSize) + 1;
    const rows = this.pages.get(page) ?? this.stale.get(page);
    return rows?.[index - (page - 1) * this.pageSize];
  }

  /** Whether the row's page has its fresh copy. */
  hasRow(index: number): boolean {
    return this.pages.has(Math.floor(index / this.pageSize) + 1);
  }

  /** Asks for the rows `from`..`to` (inclusive); fetches the pages that are missing. */
  want(from: number, to: number) {
    if (this.disposed) return;
    this.requested = [from, to];
    const total = this.snapshot.total;
    const last = total === null ? 1 : Math.max(1, Math.ceil(total / this.pageSize));
    const first = Math.min(last, Math.floor(Math.max(0, from) / this.pageSize) + 1);
    const end = Math.min(last, Math.floor(Math.max(0, to) / this.pageSize) + 1);
    this.wanted = new Set();
    for (let p = first; p <= end; p++) this.wanted.add(p);
    // Pages no longer on screen are not worth waiting for.
    this.queue = this.queue.filter((p) => this.wanted.has(p));
    for (const [p, ac] of this.inFlight)
      if (!this.wanted.has(p)) {
        ac.abort();
        this.inFlight.delete(p);
      }
    for (const p of this.wanted) {
      if (this.pages.has(p)) this.touch(p);
      else if (!this.inFlight.has(p) && !this.queue.includes(p)) this.queue.push(p);
    }
    this.pump();
  }

  /** Keeps a page as the most recently used. */
  private touch(p: number) {
    const rows = this.pages.get(p);
    if (!rows) return;
    this.pages.delete(p);
    this.pages.set(p, rows);
  }

  private pump() {
    const parallel = this.opts.parallel ?? 2;
    let started = false;
    while (this.inFlight.size < parallel && this.queue.length > 0) {
      const page = this.queue.shift()!;
      started = true;
      const ac = new AbortController();
      this.inFlight.set(page, ac);
      const generation = this.generation;
      this.opts
        .fetchPage(page, ac.signal)
        .then(({ items, total }) => {
          if (generation !== this.generation || ac.signal.aborted) return;
          this.inFlight.delete(page);
          this.pages.set(page, items);
          this.stale.delete(page);
          this.evict();
          const totalChanged = total !== this.snapshot.total;
          this.emit({ total, error: null });
          // The count changed (answers arrived, others were excluded): pages past the new end go.
          if (totalChanged) this.want(...this.requested);
          else this.pump();
        })
        .catch((err: unknown) => {
          if (generation !== this.generation || ac.signal.aborted) return;
          this.inFlight.delete(page);
          if (!(err instanceof DOMException && err.name === 'AbortError'))
            this.emit({ error: err instanceof Error ? err.message : String(err) });
          else this.emit({});
          this.pump();
        });
    }
    if (started) this.emit({});
  }

  private evict() {
    const keep = Math.max(this.opts.keep ?? 20, this.wanted.size);
    for (const p of this.pages.keys()) {
      if (this.pages.size <= keep) break;
      if (!this.wanted.has(p)) this.pages.delete(p);
    }
  }

  /** Drops every page and fetches what is on screen again; the old rows stay until then. */
  refresh() {
    if (this.disposed) return;
    this.generation++;
    for (const ac of this.inFlight.values()) ac.abort();
    this.inFlight.clear();
    for (const [p, rows] of this.pages) if (this.wanted.has(p)) this.stale.set(p, rows);
    this.pages.clear();
    this.queue = [];
    this.emit({ error: null });
    this.want(...this.requested);
  }

  /** Stops every request; the store answers nothing more. */
  dispose() {
    this.disposed = true;
    this.generation++;
    for (const ac of this.inFlight.values()) ac.abort();
    this.inFlight.clear();
    this.queue = [];
    this.listeners.clear();
  }
}
