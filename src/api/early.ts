import type { Query } from './client';

// A page's first calls, started by the start-up beside the sign-in's restore instead of after the
// page's chunk has arrived and rendered (issue 25, Lighthouse on the signed-in pages: the list's
// call used to start last, after every chunk and the layout's first render). The page takes its
// call once, by the same key it would ask with; anything else (another query, a later page, a
// reload of the list) asks the server as before. An early call not taken within EARLY_MS is
// dropped, so a page opened much later never shows an old answer. Early calls are `quiet`
// (client.ts): a failure is asked again by the page, which then reports it as it always did.

const EARLY_MS = 30_000;

const started = new Map<string, { at: number; call: Promise<unknown>; arrived?: { value: unknown } }>();

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
  const e: { at: number; call: Promise<unknown>; arrived?: { value: unknown } } = { at: Date.now(), call: p };
  // Read later or never: its rejection must not go unhandled meanwhile.
  p.then(
    (value) => (e.arrived = { value }),
    () => {},
  );
  started.set(key, e);
}

/**
 * The answer of the call started early under this key if it has already arrived (while fresh): the
 * page then renders it in its first render instead of rendering "loading" first and the answer a
 * task later (one render, style and layout pass less before the content shows). Read during
 * render, so it does not consume: a render that suspends is thrown away and done again. The page
 * calls `forgetEarly` once it has committed.
 */
export function arrivedEarly<T>(key: string): T | undefined {
  const e = started.get(key);
  if (!e?.arrived || Date.now() - e.at > EARLY_MS) return undefined;
  return e.arrived.value as T;
}

export function forgetEarly(key: string): void {
  started.delete(key);
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
