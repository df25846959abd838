import fs from 'node:fs';
import path from 'node:path';
import cytoscape from 'cytoscape';
import { describe, expect, it } from 'vitest';

// src/views/editor/canvas/idleLoop.ts replaces cytoscape's render loop with one that sleeps while
// there is nothing to draw. It copies the loop's frame and knows every way cytoscape gives the loop
// work. These tests hold the installed cytoscape to what that module was written against: after an
// upgrade that changes the loop, the way a frame is asked for, or the per-frame hooks, they fail, and
// idleLoop.ts is to be read again beside the new cytoscape (the e2e test
// tests/e2e/editor-canvas-idle.test.ts checks the sleeping loop on a real canvas).

type Proto = Record<string, ((...args: unknown[]) => unknown) & { idle?: boolean }>;
const canvasPrototype = () => (cytoscape('renderer', 'canvas') as { prototype: Proto }).prototype;
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
/** The build Vite bundles (package.json "exports" → "import"). */
const dist = fs.readFileSync(path.resolve('node_modules/cytoscape/dist/cytoscape.esm.mjs'), 'utf8');

// Read before idleLoop.ts is imported (below), which replaces it.
const originalLoop = canvasPrototype().startRenderLoop.toString();

/** cytoscape 3.34.4's startRenderLoop (dist/cytoscape.esm.mjs), whose frame idleLoop.ts copies. */
const LOOP_3_34 = `function () {
  var r = this;
  var cy = r.cy;
  if (r.renderLoopStarted) {
    return;
  } else {
    r.renderLoopStarted = true;
  }
  var _renderFn = function renderFn(requestTime) {
    if (r.destroyed) {
      return;
    }
    if (cy.batching()) ; else if (r.requestedFrame && !r.skipFrame) {
      beforeRenderCallbacks(r, true, requestTime);
      var startTime = performanceNow();
      r.render(r.renderOptions);
      var endTime = r.lastDrawTime = performanceNow();
      if (r.averageRedrawTime === undefined) {
        r.averageRedrawTime = endTime - startTime;
      }
      if (r.redrawCount === undefined) {
        r.redrawCount = 0;
      }
      r.redrawCount++;
      if (r.redrawTotalTime === undefined) {
        r.redrawTotalTime = 0;
      }
      var duration = endTime - startTime;
      r.redrawTotalTime += duration;
      r.lastRedrawTime = duration;

      // use a weighted average with a bias from the previous average so we don't spike so easily
      r.averageRedrawTime = r.averageRedrawTime / 2 + duration / 2;
      r.requestedFrame = false;
    } else {
      beforeRenderCallbacks(r, false, requestTime);
    }
    r.skipFrame = false;
    requestAnimationFrame(_renderFn);
  };
  requestAnimationFrame(_renderFn);
}`;

describe("the canvas's sleeping render loop against the installed cytoscape", () => {
  it("finds cytoscape's loop as the one it copies", () => {
    expect(squash(originalLoop)).toBe(squash(LOOP_3_34));
  });

  it('is woken by redraw(), the only place a frame is asked to be drawn', () => {
    expect(dist.match(/\.requestedFrame = true/g)).toHaveLength(1);
    expect(dist).not.toMatch(/\.skipFrame = true/);
    expect(squash(canvasPrototype().redraw.toString())).toContain(
      'r.requestedFrame = true; r.renderOptions = options;',
    );
  });

  it('knows every per-frame hook: animations, style calculations, texture dequeues, layer skipping', () => {
    const priorities = /beforeRenderPriorities = \{([^}]*)\}/.exec(dist)?.[1] ?? '';
    expect([...priorities.matchAll(/(\w+):/g)].map((m) => m[1])).toEqual([
      'animations',
      'eleCalcs',
      'eleTxrDeq',
      'lyrTxrDeq',
      'lyrTxrSkip',
    ]);
    // animations (core), eleCalcs (rendered style), both caches' dequeue (one shared definition),
    // the layered cache's skip flag.
    expect(dist.match(/\.beforeRender\(/g)).toHaveLength(4);
    // Texture work is queued only through these, which the loop wraps to wake.
    expect(dist).toMatch(/ETCp\.queueElement = function/);
    expect(dist).toMatch(/LTCp\.queueLayer = function/);
  });

  it('replaces the canvas renderer loop once, when imported', async () => {
    const { installIdleLoop } = await import('../../src/views/editor/canvas/idleLoop');
    const installed = canvasPrototype().startRenderLoop;
    expect(installed.idle).toBe(true);
    expect(installIdleLoop()).toBe(true);
    expect(canvasPrototype().startRenderLoop).toBe(installed);
  });
});
