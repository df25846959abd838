import type { Query } from './client';

// A page's first calls, started by the start-up beside the sign-in's restore instead of after the
// page's chunk has arrived and rendered (issue 25, Lighthouse on the signed-in pages: the list's
// call used to start last, after every chunk and the layout's first render). The page takes its
// call once, by the same key it would ask with; anything else (another query, a later page, a
// reload of the list) asks the server as before. An early call not taken within EARLY_MS is
// dropped, so a page opened much later never shows an old answer. Early calls are `quiet`
// (client.ts): a failure is asked again by the page, which then reports it as it always did.

const EARLY_MS = 30_000;

const started = new Map<string, { at: number; call: Promise<unknown> }>();

/** One call's identity: the path and its query, empty values left out and keys in order. */
export function callKey(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(query).sort()) {
    const value = query[key];
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else params.append(key, String(value));
  }
  return `${path}?${params.toString()}`;
}

/** Starts a call now for the page to take later. */
export function startEarly(key: string, call: () => Promise<unknown>): void {
  const p = call();
  p.catch(() => {}); // read later or never: its rejection must not go unhandled meanwhile
  started.set(key, { at: Date.now(), call: p });
}

/**
 * The call started early under this key (once, while fresh), else `ask()`. An early call that
 * failed is asked again by `ask()`, so its errors, messages and sign-out are the page's own as before.
 */
export function earlyOr<T>(key: string, ask: () => Promise<T>): Promise<T> {
  const e = started.get(key);
  started.delete(key);
  if (!e || Date.now() - e.at > EARLY_MS) return ask();
  return (e.call as Promise<T>).catch(ask);
}
