// Work the page can leave until the browser is idle (requestIdleCallback where there is one, a
// timer elsewhere), at the latest after `timeout` ms.

export function whenIdle(run: () => void, timeout: number): number {
  return typeof requestIdleCallback === 'function'
    ? requestIdleCallback(run, { timeout })
    : (setTimeout(run, 16) as unknown as number);
}

export function cancelIdle(id: number): void {
  if (typeof cancelIdleCallback === 'function') cancelIdleCallback(id);
  else clearTimeout(id);
}
