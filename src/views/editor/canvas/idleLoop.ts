import cytoscape from 'cytoscape';

// Cytoscape's canvas renderer (3.34) asks for an animation frame in every frame for the life of the
// page, whether it draws or not (base/redraw.js `startRenderLoop`; cytoscape issues 2656, 2657).
// With a frame always requested the page never goes idle, so a key typed in a panel waits for the
// next vsync before Chromium starts the frame that shows it (8 ms on average); on an idle page
// Chromium starts that frame at once. No option turns the loop off, and a registered renderer
// cannot replace it (cytoscape refuses one that overrides a base method), so this module replaces
// `startRenderLoop` on the canvas renderer's prototype when it is imported (before the canvas makes
// its instance). The frame's body is cytoscape's, unchanged; what differs is that the next frame is
// asked for only while there is something to do, and the loop is woken by what gives it work:
//   - `redraw()`, the one way anything asks for a frame to be drawn (element and style changes,
//     viewport changes, pointer input, resizes, texture caches' redraws after their work);
//   - an animation hooked into the loop (elements' through the animation pool, the core's through
//     its `animation()`): the loop steps animations only in frames;
//   - an element or a layer queued in a texture cache: the caches render their queues in frames
//     that do not draw, and the layered cache queues layers from a timer of its own.
// It keeps going while a redraw is pending, a batch is open, an animation is hooked, or any texture
// queue holds work; then it sleeps. If an upgrade moves any of the internals read here, the
// renderer keeps cytoscape's own loop (the canvas still draws, only never idles) and says so on the
// console; tests/unit/editor-idle-loop.test.ts and the e2e canvas test fail on such an upgrade.

interface Queue {
  size(): number;
}
interface ElementCache {
  getElementQueue(): Queue;
  queueElement(...args: unknown[]): unknown;
}
interface LayerCache {
  layersQueue: Queue;
  queueLayer(...args: unknown[]): unknown;
}
interface Animation {
  hook(): unknown;
}
interface CoreInternals {
  batching(): boolean;
  addToAnimationPool(eles: unknown): void;
  animation(...args: unknown[]): Animation;
  _private: { aniEles: { length: number }; animation: { current: unknown[]; queue: unknown[] } };
}
/** The renderer's fields its loop reads and writes (cytoscape's names). */
export interface LoopRenderer {
  cy: CoreInternals;
  destroyed?: boolean;
  renderLoopStarted?: boolean;
  requestedFrame?: boolean;
  skipFrame?: boolean;
  renderOptions?: unknown;
  beforeRenderCallbacks: { fn(willDraw: boolean, time: number): void }[];
  render(options: unknown): void;
  redraw(options?: unknown): void;
  lastDrawTime?: number;
  averageRedrawTime?: number;
  redrawCount?: number;
  redrawTotalTime?: number;
  lastRedrawTime?: number;
  data: Record<(typeof ELEMENT_CACHES)[number], ElementCache> & { lyrTxrCache: LayerCache };
  /** Set by this module: whether this renderer's loop sleeps (false: cytoscape's own loop runs). */
  idleLoop?: boolean;
}

/** The canvas renderer's element texture caches (nodes, labels, edge source and target labels). */
const ELEMENT_CACHES = ['eleTxrCache', 'lblTxrCache', 'slbTxrCache', 'tlbTxrCache'] as const;

/** Whether the instance has every internal the sleeping loop reads (else cytoscape's loop runs). */
function fits(r: LoopRenderer): boolean {
  const cy = r.cy as Partial<CoreInternals> | undefined;
  const fn = (o: unknown, name: string) =>
    typeof (o as Record<string, unknown> | undefined)?.[name] === 'function';
  return (
    !!cy &&
    fn(cy, 'batching') &&
    fn(cy, 'addToAnimationPool') &&
    fn(cy, 'animation') &&
    typeof cy._private?.aniEles?.length === 'number' &&
    Array.isArray(cy._private?.animation?.current) &&
    Array.isArray(cy._private?.animation?.queue) &&
    Array.isArray(r.beforeRenderCallbacks) &&
    fn(r, 'render') &&
    fn(r, 'redraw') &&
    !!r.data &&
    ELEMENT_CACHES.every(
      (c) => fn(r.data[c], 'queueElement') && fn(r.data[c]?.getElementQueue?.(), 'size'),
    ) &&
    fn(r.data.lyrTxrCache, 'queueLayer') &&
    fn(r.data.lyrTxrCache?.layersQueue, 'size')
  );
}

/** Whether the loop has work for another frame. */
function busy(r: LoopRenderer): boolean {
  const cy = r.cy;
  const ani = cy._private;
  return (
    !!r.requestedFrame ||
    cy.batching() ||
    ani.aniEles.length > 0 ||
    ani.animation.current.length > 0 ||
    ani.animation.queue.length > 0 ||
    ELEMENT_CACHES.some((c) => r.data[c].getElementQueue().size() > 0) ||
    r.data.lyrTxrCache.layersQueue.size() > 0
  );
}

/** Calls `wake` after each call of `obj[name]` (an own property over the prototype's method). */
function after<T extends object>(obj: T, name: keyof T & string, wake: () => void) {
  const original = obj[name] as unknown as (...args: unknown[]) => unknown;
  Object.defineProperty(obj, name, {
    configurable: true,
    writable: true,
    value(this: unknown, ...args: unknown[]) {
      const result = original.apply(this, args);
      wake();
      return result;
    },
  });
}

/**
 * The sleeping loop for one renderer. `raf` is the frame request (window.requestAnimationFrame,
 * looked up when called, as cytoscape does).
 */
export function startIdleLoop(r: LoopRenderer, raf: (f: FrameRequestCallback) => void): void {
  const cy = r.cy;
  let requested = false;
  const wake = () => {
    if (requested || r.destroyed) return;
    requested = true;
    raf(frame);
  };
  // Cytoscape's frame, as in base/redraw.js (tests/unit/editor-idle-loop.test.ts holds its text).
  const frame = (time: number) => {
    requested = false;
    if (r.destroyed) return;
    const callbacks = (willDraw: boolean) => {
      const cbs = r.beforeRenderCallbacks;
      for (let i = 0; i < cbs.length; i++) cbs[i].fn(willDraw, time);
    };
    if (cy.batching()) {
      // Mid-batch: no pre-frame hooks, no drawing.
    } else if (r.requestedFrame && !r.skipFrame) {
      callbacks(true);
      const start = performance.now();
      r.render(r.renderOptions);
      const end = (r.lastDrawTime = performance.now());
      const duration = end - start;
      if (r.averageRedrawTime === undefined) r.averageRedrawTime = duration;
      r.redrawCount = (r.redrawCount ?? 0) + 1;
      r.redrawTotalTime = (r.redrawTotalTime ?? 0) + duration;
      r.lastRedrawTime = duration;
      r.averageRedrawTime = r.averageRedrawTime / 2 + duration / 2;
      r.requestedFrame = false;
    } else {
      callbacks(false);
    }
    r.skipFrame = false;
    if (busy(r)) wake();
  };
  after(r, 'redraw', wake);
  after(cy, 'addToAnimationPool', wake);
  const animation = cy.animation;
  cy.animation = function (this: CoreInternals, ...args: unknown[]) {
    const ani = animation.apply(this, args);
    // play() and apply() hook the core's animation into the loop's list.
    if (ani && typeof ani.hook === 'function') after(ani, 'hook', wake);
    return ani;
  };
  for (const c of ELEMENT_CACHES) after(r.data[c], 'queueElement', wake);
  after(r.data.lyrTxrCache, 'queueLayer', wake);
  wake();
}

type RendererClass = { prototype: { startRenderLoop?: (this: LoopRenderer) => void } };

/** Replaces the canvas renderer's loop (once; also when this module is evaluated again). */
export function installIdleLoop(): boolean {
  const proto = (cytoscape('renderer', 'canvas') as RendererClass | undefined)?.prototype;
  const original = proto?.startRenderLoop;
  if (!proto || typeof original !== 'function') {
    console.warn('cytoscape: no canvas renderer loop to replace; the canvas never idles');
    return false;
  }
  if ((original as { idle?: boolean }).idle) return true;
  const startRenderLoop = function (this: LoopRenderer) {
    if (this.renderLoopStarted) return;
    if (!fits(this)) {
      console.warn("cytoscape's renderer changed: its own render loop runs, the canvas never idles");
      this.idleLoop = false;
      original.call(this);
      return;
    }
    this.renderLoopStarted = true;
    this.idleLoop = true;
    startIdleLoop(this, (f) => requestAnimationFrame(f));
  };
  startRenderLoop.idle = true;
  proto.startRenderLoop = startRenderLoop;
  return true;
}

installIdleLoop();
