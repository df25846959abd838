/// <reference lib="webworker" />
import { layout } from './layout';
import type { LayoutRequest, LayoutResponse } from './layoutProtocol';

// Lays out the canvas off the main thread: one request, one answer, nothing kept between them.
self.onmessage = (e: MessageEvent<LayoutRequest>) => {
  if (e.data?.type !== 'layout') return;
  const t0 = performance.now();
  const positions = layout(e.data.structure);
  const res: LayoutResponse = { type: 'layout', id: e.data.id, positions, ms: performance.now() - t0 };
  (self as unknown as DedicatedWorkerGlobalScope).postMessage(res);
};
