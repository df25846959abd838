import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, signIn, startApp, watchErrors } from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { insertProject, saveProject } from '../server/content-helpers';
import { bigProject } from '../unit/content-fixtures';
import { Role } from '../../src/domain/roles';

// The canvas's render loop sleeps while cytoscape has nothing to draw (src/views/editor/canvas/
// idleLoop.ts), so that a key typed in a panel starts its frame at once; and it still draws all it
// drew: the opening, the selection, a question added (its position from the layout worker), zoom
// and pan with the textures they need, and animations started while it slept. The test reads the
// real cytoscape instance through the registration cytoscape keeps on its container.

/**
 * Counts the page's requests for an animation frame (cytoscape looks the function up per call), and
 * gives the page's cytoscape instance as `__cy()` (cytoscape registers it on its container).
 */
const IN_PAGE = `(() => {
  window.__frames = 0;
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (f) => { window.__frames++; return raf(f); };
  window.__cy = () =>
    document.querySelector('[role="region"][data-editor-items]').firstElementChild._cyreg.cy;
})()`;

interface Node {
  renderedBoundingBox(): { x1: number; y1: number; w: number; h: number };
  position(): { x: number; y: number };
  animate(properties: object, options: object): void;
}
interface Cy {
  getElementById(id: string): Node;
  animate(properties: object, options: object): void;
  renderer(): {
    idleLoop?: boolean;
    requestedFrame?: boolean;
    data: Record<string, { getElementQueue?(): { size(): number }; layersQueue?: { size(): number } }>;
  };
  _private: { aniEles: { length: number }; animation: { current: unknown[] } };
}

describe('the canvas idles when it has nothing to draw', () => {
  let server: TestServer;
  let browser: Browser;
  let org: number;
  let researcher: Session;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    org = await server.createOrganization('Idle Org');
    researcher = await server.as(Role.Researcher, { organizationId: org });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Frames the page asked for during `ms` milliseconds. */
  async function framesIn(page: Page, ms: number) {
    const count = () => page.evaluate(() => (window as unknown as { __frames: number }).__frames);
    const before = await count();
    await page.waitForTimeout(ms);
    return (await count()) - before;
  }

  /** Waits until the page asks for no frame for 500 ms (the loop asleep). */
  async function asleep(page: Page) {
    await expect.poll(() => framesIn(page, 500), { timeout: 30_000 }).toBe(0);
  }

  /**
   * A digest of the node layer's pixels under an element's box (cytoscape draws nodes, labels and
   * edges there), and how many of them are drawn at all.
   */
  function pixels(page: Page, id: string) {
    return page.evaluate((id) => {
      const canvas = document.querySelector<HTMLCanvasElement>('canvas[data-id="layer2-node"]')!;
      const bb = (window as unknown as { __cy(): Cy }).__cy().getElementById(id).renderedBoundingBox();
      const x = Math.max(0, Math.floor(bb.x1));
      const y = Math.max(0, Math.floor(bb.y1));
      const w = Math.min(canvas.width - x, Math.ceil(bb.w));
      const h = Math.min(canvas.height - y, Math.ceil(bb.h));
      if (w <= 0 || h <= 0) return { drawn: 0, digest: 0 };
      const data = canvas.getContext('2d')!.getImageData(x, y, w, h).data;
      let drawn = 0;
      let digest = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] > 0) drawn++;
        digest =
          (digest * 31 + data[i] + 7 * data[i + 1] + 13 * data[i + 2] + 17 * data[i + 3]) % 1_000_000_007;
      }
      return { drawn, digest };
    }, id);
  }

  /** What the renderer still has to do: queued textures and layers, hooked animations, a redraw. */
  function pending(page: Page) {
    return page.evaluate(() => {
      const cy = (window as unknown as { __cy(): Cy }).__cy();
      const r = cy.renderer();
      const queued = ['eleTxrCache', 'lblTxrCache', 'slbTxrCache', 'tlbTxrCache'].reduce(
        (n, c) => n + r.data[c].getElementQueue!().size(),
        r.data.lyrTxrCache.layersQueue!.size(),
      );
      const p = cy._private;
      return {
        idleLoop: r.idleLoop,
        redraw: !!r.requestedFrame,
        queued,
        animations: p.aniEles.length + p.animation.current.length,
      };
    });
  }

  it('asks for no frame while idle, and still draws the selection, an added question, zoom, pan and animations', async () => {
    const content = bigProject({ blocks: 3, questions: 4 });
    const pid = await insertProject(server, org, { name: 'Idle canvas' });
    expect((await saveProject(server, researcher, pid, content, 0)).status).toBe(200);
    const context = await newContext(browser);
    await context.addInitScript(IN_PAGE);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    const errors = watchErrors(page);
    await signIn(page, server, researcher.user.email);
    await page.goto(`${server.url}/project?pid=${pid}`);
    const region = page.locator('[role="region"][data-complete]');
    await region.waitFor();
    const box = (await region.boundingBox())!;
    const viewport = async () => (await region.getAttribute('data-viewport'))!.split(',').map(Number);
    // The pointer off the canvas (a hovered node is drawn otherwise).
    await page.mouse.move(5, box.y + box.height - 5);

    // Opened: everything drawn, nothing left to do, and no frame asked for.
    await asleep(page);
    expect(await pending(page)).toEqual({ idleLoop: true, redraw: false, queued: 0, animations: 0 });
    const first = await pixels(page, 'q0_0');
    expect(first.drawn).toBeGreaterThan(100);

    // The selection, made in the outline while the loop slept, is drawn; then it sleeps again.
    await page.locator('[role="treeitem"][data-id="q0_0"]').click();
    await expect.poll(async () => (await pixels(page, 'q0_0')).digest).not.toBe(first.digest);
    await asleep(page);

    // A question added after the selected one: its position comes from the layout worker, and it is
    // drawn where cytoscape places it.
    const questions = page.locator('[role="treeitem"][data-kind="question"]');
    await page.locator('[data-tool="addQuestion"]').click();
    await expect.poll(() => questions.count()).toBe(13);
    const added = (await page.locator('[role="treeitem"][aria-selected="true"]').getAttribute('data-id'))!;
    await page.mouse.move(5, box.y + box.height - 5);
    await expect.poll(async () => (await pixels(page, added)).drawn).toBeGreaterThan(100);
    await asleep(page);

    // Zoomed in with the button: the view changes, textures for the new scale are made in the frames
    // after, and only then does the loop sleep, with nothing left in its queues.
    const [zoom0] = await viewport();
    const atZoom0 = await pixels(page, 'q0_0');
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(async () => (await viewport())[0]).toBeCloseTo(zoom0 * 1.25, 5);
    await page.mouse.move(5, box.y + box.height - 5);
    await expect.poll(async () => (await pixels(page, 'q0_0')).digest).not.toBe(atZoom0.digest);
    await asleep(page);
    expect(await pending(page)).toEqual({ idleLoop: true, redraw: false, queued: 0, animations: 0 });

    // Panned by dragging the background, then zoomed by the wheel over the canvas.
    const [, px0, py0] = await viewport();
    const from = { x: box.x + box.width - 40, y: box.y + box.height - 40 };
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) await page.mouse.move(from.x - 10 * i, from.y - 5 * i);
    await page.mouse.up();
    await expect.poll(async () => (await viewport())[1]).toBeLessThan(px0 - 40);
    expect((await viewport())[2]).toBeLessThan(py0 - 20);
    const [zoom1] = await viewport();
    await page.mouse.wheel(0, -200);
    await expect.poll(async () => (await viewport())[0]).toBeGreaterThan(zoom1);
    await page.mouse.move(5, box.y + box.height - 5);
    await asleep(page);
    expect(await pending(page)).toEqual({ idleLoop: true, redraw: false, queued: 0, animations: 0 });
    const settled = await pixels(page, 'q0_0');
    expect(settled.drawn).toBeGreaterThan(100);

    // Animations started while the loop sleeps run to their end: the core's (the viewport) and an
    // element's (a node's position).
    // (Nothing returned: the core would be serialised back.)
    await page.evaluate(() => {
      (window as unknown as { __cy(): Cy })
        .__cy()
        .animate({ zoom: 0.5, pan: { x: 10, y: 10 } }, { duration: 200 });
    });
    await expect.poll(async () => viewport()).toEqual([0.5, 10, 10]);
    const to = await page.evaluate(() => {
      const node = (window as unknown as { __cy(): Cy }).__cy().getElementById('q2_3');
      const p = node.position();
      node.animate({ position: { x: p.x + 400, y: p.y } }, { duration: 200 });
      return p.x + 400;
    });
    await expect
      .poll(() =>
        page.evaluate(() => (window as unknown as { __cy(): Cy }).__cy().getElementById('q2_3').position().x),
      )
      .toBe(to);
    await asleep(page);
    expect(await pending(page)).toEqual({ idleLoop: true, redraw: false, queued: 0, animations: 0 });
    expect(errors).toEqual([]);
    await context.close();
  });
});
