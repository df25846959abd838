import { useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import cytoscape, { type Core, type EventObject, type NodeSingular } from 'cytoscape';
// Before any instance is made: cytoscape's render loop sleeps while it has nothing to draw.
import './idleLoop';
import { useI18nContext } from '../../../i18n/i18n-react';
import type { Positions } from '../../../workers/layoutProtocol';
import { EditorActor } from '../editorActor';
import { selectionOfPath } from '../items';
import { useChecked } from '../useProblems';
import { STRUCTURE, disabledReason, editReason, type ToolId } from '../tools/availability';
import { runTool, TOOLS, type ToolEnv } from '../tools/registry';
import { useToolEnv } from '../tools/useToolEnv';
import {
  contentToElements,
  cycleEdges,
  firstLeaves,
  openingView,
  reuseElements,
  shortLabel,
  structureText,
  type CanvasElement,
  type CanvasLabels,
} from './elements';
import { canvasStyle } from './style';
import { applyElements, type Applied } from './applyElements';
import { useCanvasHint } from './useCanvasHint';
import { layoutKnown, layoutOf } from './positions';
import { cancelIdle, whenIdle } from '../../ui/idle';

// The questionnaire as a graph (cytoscape, in the editor's own chunk): questionnaires' boxes hold
// blocks' boxes holding questions in order; edges for every redirect. Positions come from the layout
// worker (cached in Dexie); the elements are a pure function of the content (elements.ts) diffed into
// cytoscape by applyElements.ts. The selection is the page's one
// (EditorUi), both ways. Dragging a question onto another block moves it there (code 012).

/**
 * A large project's leaves go into cytoscape in slices: the first (what the opening view shows)
 * before the first frame, the rest one slice per idle moment, so that the outline and the toolbar
 * answer while the canvas fills in (styling and drawing 1 000 questions at once was one task of a
 * second and more; the first 200 in reading order, half of them off screen, were a first frame of
 * about 100 ms).
 */
const SLICE = 100;

/**
 * Moves the view as little as needed for the node to show whole (an item added off-screen, one
 * picked in the outline or the problem list); never zooms or refits. A node larger than the view
 * shows its top left.
 */
function keepInView(cy: Core, node: NodeSingular) {
  const m = 24;
  const w = cy.width();
  const h = cy.height();
  // From the node's position and size: its bounding box would be worked out afresh (labels
  // measured) on each selection.
  const p = node.renderedPosition();
  const hw = node.renderedOuterWidth() / 2;
  const hh = node.renderedOuterHeight() / 2;
  const bb = { x1: p.x - hw, x2: p.x + hw, y1: p.y - hh, y2: p.y + hh };
  const shift = (lo: number, hi: number, size: number) =>
    lo < m ? m - lo : hi > size - m ? Math.max(size - m - hi, m - lo) : 0;
  const dx = shift(bb.x1, bb.x2, w);
  const dy = shift(bb.y1, bb.y2, h);
  if (dx || dy) cy.panBy({ x: dx, y: dy });
}

function Menu({ env, at, close }: { env: ToolEnv; at: { x: number; y: number }; close: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.querySelector<HTMLButtonElement>('button:not([aria-disabled])')?.focus(), []);
  const items = STRUCTURE;
  const onKeyDown = (e: React.KeyboardEvent) => {
    const buttons = [...(ref.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'Escape') close();
    else if (e.key === 'ArrowDown') buttons[(i + 1) % buttons.length]?.focus();
    else if (e.key === 'ArrowUp') buttons[(i - 1 + buttons.length) % buttons.length]?.focus();
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  return (
    <div
      ref={ref}
      role="menu"
      aria-label={env.LL.editor.frame.canvas.menu()}
      onKeyDown={onKeyDown}
      className="absolute z-20 w-56 rounded-md border border-slate-200 bg-white py-1 shadow-lg"
      style={{ left: at.x, top: at.y }}
    >
      {items.map((id: ToolId) => {
        const reason = disabledReason(env.LL, id, env.facts);
        return (
          <button
            key={id}
            type="button"
            role="menuitem"
            data-command={id}
            aria-disabled={reason ? true : undefined}
            title={reason ?? undefined}
            onClick={() => {
              if (reason) return;
              close();
              runTool(env, id);
            }}
            className="block w-full px-3 py-1.5 text-left text-sm text-slate-900 hover:bg-slate-100 aria-disabled:text-slate-500"
          >
            {TOOLS[id].label(env.LL)}
          </button>
        );
      })}
    </div>
  );
}

export default function Canvas() {
  const { LL } = useI18nContext();
  const actor = EditorActor.useActorRef();
  const env = useToolEnv();
  const ui = env.ui;
  // Read in a render of its own after an edit, with the rules' (useChecked): the edit commits
  // without the canvas's elements being worked out again (see the apply effect below).
  const content = useDeferredValue(EditorActor.useSelector((s) => s.context.doc.content));
  const pid = EditorActor.useSelector((s) => s.context.pid);
  const db = EditorActor.useSelector((s) => s.context.db);
  const checked = useChecked();
  const structureJson = useMemo(() => structureText(content), [content]);
  // Positions the page already has (read while the outline rendered) are there from the first render.
  const [laid, setLaid] = useState<{ structure: string; positions: Positions } | null>(() => {
    const known = layoutKnown(db, pid, content);
    return known ? { structure: structureJson, positions: known.positions } : null;
  });
  const positions = laid?.positions ?? null;
  const [menu, setMenu] = useState<{ x: number; y: number } | null>(null);
  const [ready, setReady] = useState(false);
  /** Leaves in beyond those the opening view shows; Infinity once all are in. */
  const [leaves, setLeaves] = useState(0);
  /** The view the project opened at, worked out once, with the first positions. */
  const [opening, setOpening] = useState<ReturnType<typeof openingView> | null>(null);
  const cyRef = useRef<Core | null>(null);
  const container = useRef<HTMLDivElement>(null);
  const applied = useRef<Applied>(new Map());
  const selected = useRef<cytoscape.CollectionReturnValue | null>(null);
  /** The selected node and the position it was last brought into view at. */
  const shownAt = useRef<string | null>(null);
  const hint = useCanvasHint();
  const uiRef = useRef(ui);
  uiRef.current = ui;
  const positionsRef = useRef(positions);
  positionsRef.current = positions;
  const envRef = useRef(env);
  envRef.current = env;

  /** The opening view, once: from the first positions and the canvas's size. */
  const openAt = (p: Positions) => {
    const box = container.current;
    if (box) setOpening((o) => o ?? openingView(p, box.clientWidth, box.clientHeight));
  };
  // Lay out when the structure changes (not on text edits): cached positions, else the worker.
  // Cached per block object (structureText): a text edit does not walk the other 49 blocks.
  useEffect(() => {
    let live = true;
    void layoutOf(db, pid, content).then((answer) => {
      if (!live) return;
      setLaid((l) =>
        l?.structure === structureJson && l.positions === answer.positions
          ? l
          : { structure: structureJson, positions: answer.positions },
      );
      openAt(answer.positions);
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the positions change when the structure's text does
  }, [db, pid, structureJson]);

  const labels: CanvasLabels = useMemo(() => {
    // Each step into LL builds proxies: the functions are looked up once, not once per block.
    const outline = LL.editor.frame.outline;
    const { block, blockNamed, questionnaire, questionnaireNamed } = outline;
    return {
      questionnaire: (n, name) => (name ? questionnaireNamed({ n, name }) : questionnaire({ n })),
      block: (n, name) => (name ? blockNamed({ n, name }) : block({ n })),
      question: (n, text) => `${n}. ${shortLabel(text.trim() || LL.editor.page.untitled())}`,
      completeBlock: LL.editor.frame.canvas.completeBlock(),
      newQuestionnaire: LL.editor.frame.canvas.newQuestionnaire(),
      answer: (n) => LL.editor.frame.path.answer({ n }),
    };
  }, [LL]);
  // The rules' problems come a frame after an edit (useChecked): their paths are read in the
  // content they were found in, which may be the one before the edit.
  const cycle = useMemo(() => cycleEdges(checked.content, checked.problems), [checked]);
  const problemIds = useMemo(() => {
    const ids = new Set<string>();
    for (const p of checked.problems) {
      const s = selectionOfPath(checked.content, p.path);
      if (s) ids.add(s.id);
    }
    return ids;
  }, [checked]);
  // The previous elements by id: unchanged ones keep their objects, which the diff skips.
  const previousElements = useRef(new Map<string, CanvasElement>());
  const elements = useMemo(() => {
    const next = reuseElements(
      contentToElements(content, labels, {
        positions,
        connections: ui.connections,
        cycle,
        problemIds,
      }),
      previousElements.current,
    );
    previousElements.current = new Map(next.map((e) => [String(e.data.id), e]));
    return next;
  }, [content, labels, positions, ui.connections, problemIds, cycle]);

  const complete = leaves === Infinity;
  const shown = useMemo(
    () => (complete ? elements : firstLeaves(elements, leaves, opening?.area ?? null)),
    [elements, leaves, complete, opening],
  );
  // The next slice once the previous one is drawn and the page is idle; all in, slicing ends for good.
  useEffect(() => {
    if (complete || !positions) return;
    if (shown.length === elements.length) {
      setLeaves(Infinity);
      performance.mark('editor:canvas-complete');
      return;
    }
    const id = whenIdle(() => setLeaves((n) => n + SLICE), 200);
    return () => cancelIdle(id);
  }, [shown, elements, complete, positions]);

  // One cytoscape instance for the page's life; elements arrive through applyElements. Made before
  // the first paint, so that positions known at mount give the opening view in the same frame.
  useLayoutEffect(() => {
    const cy = cytoscape({
      container: container.current,
      style: canvasStyle,
      minZoom: 0.05,
      maxZoom: 3,
      // Cheap frames while panning and zooming under software rendering (DESIGN.md section 7):
      // a texture of the last frame moves, edges and labels come back when the gesture ends.
      textureOnViewport: true,
      hideEdgesOnViewport: true,
      hideLabelsOnViewport: true,
      motionBlur: false,
      pixelRatio: 1,
      boxSelectionEnabled: false,
    });
    bind(cy);
    if (positionsRef.current) openAt(positionsRef.current);
    return () => {
      cy.destroy();
      cyRef.current = null;
      applied.current = new Map();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- bound once; handlers read refs
  }, []);

  // Elements go in once positions are known, and after a structure edit once the new positions are
  // (an added item would flash at 0,0 first, and the view could not be moved to it).
  const laidOut = laid !== null && laid.structure === structureJson;
  // An edit that moves nothing (a text, a problem mark) reaches the canvas in the frame after the one
  // that shows it in the field and the outline: each of the two frames stays within 16 ms at 1 000
  // questions, where the page's update and cytoscape's redraw together went past it. Structure
  // edits, slices and the opening go in at once (they wait for positions or idle time already).
  const appliedStructure = useRef<string | null>(null);
  useLayoutEffect(() => {
    const cy = cyRef.current;
    if (!cy || !laidOut) return;
    const apply = () => {
      const start = performance.now();
      applied.current = applyElements(cy, applied.current, shown);
      appliedStructure.current = structureJson;
      performance.measure('editor:canvas-apply', { start });
    };
    if (!complete || appliedStructure.current !== structureJson) return apply();
    let timer = 0;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(apply);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [shown, laidOut, complete, structureJson]);

  useEffect(() => {
    cyRef.current?.autoungrabify(env.facts.state === 'readOnly');
  }, [env.facts.state]);

  // The opening view once the first positions are on screen: a large questionnaire starts readable
  // at its top left (openingView).
  useLayoutEffect(() => {
    const cy = cyRef.current;
    // `opening` is set once (openAt), so this runs once.
    if (!cy || !opening) return;
    cy.viewport({ zoom: opening.zoom, pan: opening.pan });
    setReady(true);
    performance.mark('editor:canvas-ready');
  }, [opening]);

  // The page's selection shown on the canvas.
  useEffect(() => {
    const cy = cyRef.current;
    if (!cy) return;
    // Only the element losing and the one gaining the selection are restyled (a selector over every
    // element on each click cost a pass over the whole graph).
    const node = ui.selection ? cy.getElementById(ui.selection.id) : null;
    const before = selected.current;
    if (before && before.id() !== ui.selection?.id && before.inside()) before.unselect();
    if (node && node.nonempty() && !node.selected()) node.select();
    selected.current = node && node.nonempty() ? node : null;
    // Brought into view when it becomes the selection, first appears, or moves (a structure edit);
    // not on every edit or slice, which would pull the view back after the user panned away.
    if (node && node.nonempty() && laidOut) {
      const p = node.position();
      const at = `${node.id()}@${p.x},${p.y}`;
      if (shownAt.current !== at) keepInView(cy, node);
      shownAt.current = at;
    }
  }, [ui.selection, shown, laidOut]);

  const bind = (cy: Core) => {
    if (cyRef.current === cy) return;
    cyRef.current = cy;
    cy.on('tap', 'node', (e: EventObject) => {
      const n = e.target as NodeSingular;
      const kind = n.data('kind');
      if (kind === 'question' || kind === 'block' || kind === 'questionnaire')
        uiRef.current.select({ kind, id: n.id() });
      setMenu(null);
    });
    cy.on('tap', (e: EventObject) => {
      if (e.target === cy) setMenu(null);
    });
    cy.on('cxttap', 'node', (e: EventObject) => {
      const n = e.target as NodeSingular;
      const kind = n.data('kind');
      if (kind !== 'question' && kind !== 'block' && kind !== 'questionnaire') return;
      uiRef.current.select({ kind, id: n.id() });
      setMenu({ x: e.renderedPosition.x, y: e.renderedPosition.y });
    });
    // The viewport on the region's dataset (not React state: it changes every frame of a pan), so
    // end-to-end tests can turn model positions into screen points.
    cy.on('viewport', () => {
      const region = container.current?.parentElement;
      if (region) region.dataset.viewport = `${cy.zoom()},${cy.pan().x},${cy.pan().y}`;
    });
    cy.on('scrollzoom', () => hint.done('zoom'));
    cy.on('dragpan', () => hint.done('pan'));
    cy.on('dragfree', 'node.question', (e: EventObject) => dropped(cy, e.target as NodeSingular));
  };

  /** A question let go: onto another block it moves there, in its own block it takes its new place; else it goes back. */
  const dropped = (cy: Core, node: NodeSingular) => {
    const at = node.position();
    const from = String(node.data('block'));
    // Blocks are plain boxes (no compounds, see elements.ts): the one under the point, from its
    // position and size; its questions are the nodes naming it.
    let to = from;
    cy.nodes('.block').forEach((b) => {
      if (to !== from || b.id() === from) return;
      const p = b.position();
      const w = Number(b.data('w')) / 2;
      const h = Number(b.data('h')) / 2;
      if (at.x >= p.x - w && at.x <= p.x + w && at.y >= p.y - h && at.y <= p.y + h) to = b.id();
    });
    const index = cy
      .nodes('.question')
      .filter((q) => q.data('block') === to && q.id() !== node.id() && q.position('y') < at.y).length;
    const back = positionsRef.current?.[node.id()];
    if (!editReason(envRef.current.LL, envRef.current.facts)) {
      const prev = actor.getSnapshot().context.doc.content;
      actor.send({
        type: 'content.edit',
        command: { type: 'question.move', questionId: node.id(), toBlockId: to, index },
      });
      if (actor.getSnapshot().context.doc.content !== prev) return;
    }
    if (back) node.position(back);
  };

  const zoomBy = (f: number) => {
    const cy = cyRef.current;
    if (!cy) return;
    cy.zoom({ level: cy.zoom() * f, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
  };

  return (
    <div
      role="region"
      aria-label={LL.editor.frame.canvas.label()}
      tabIndex={0}
      data-editor-items
      data-cycle={[...cycle].join(' ') || undefined}
      data-ready={ready || undefined}
      data-complete={(ready && complete) || undefined}
      className="relative min-h-0 flex-1 bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-500"
      onKeyDown={(e) => {
        if ((e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) && ui.selection) {
          const n = cyRef.current?.getElementById(ui.selection.id);
          const p = n && n.nonempty() ? n.renderedPosition() : { x: 40, y: 40 };
          setMenu({ x: p.x, y: p.y });
          e.preventDefault();
        }
      }}
    >
      {/* Cytoscape makes its container position: relative; the size must not depend on insets. */}
      <div ref={container} style={{ position: 'absolute', top: 0, left: 0, width: '100%', height: '100%' }} />
      <div className="absolute right-2 top-2 flex flex-col gap-1 rounded-md border border-slate-200 bg-white p-1 shadow-sm">
        <button
          type="button"
          className="h-8 w-8 rounded text-lg text-slate-800 hover:bg-slate-100"
          aria-label={LL.editor.frame.canvas.zoomIn()}
          title={LL.editor.frame.canvas.zoomIn()}
          onClick={() => zoomBy(1.25)}
        >
          +
        </button>
        <button
          type="button"
          className="h-8 w-8 rounded text-lg text-slate-800 hover:bg-slate-100"
          aria-label={LL.editor.frame.canvas.zoomOut()}
          title={LL.editor.frame.canvas.zoomOut()}
          onClick={() => zoomBy(0.8)}
        >
          −
        </button>
        <button
          type="button"
          className="h-8 w-8 rounded text-slate-800 hover:bg-slate-100"
          aria-label={LL.editor.frame.canvas.fit()}
          title={LL.editor.frame.canvas.fit()}
          onClick={() => cyRef.current?.fit(undefined, 24)}
        >
          ⤢
        </button>
      </div>
      {hint.visible && (
        <p
          data-hint="canvas"
          className="pointer-events-none absolute bottom-2 left-2 rounded bg-slate-800/90 px-2 py-1 text-xs text-white"
        >
          {LL.editor.frame.hints.canvas()}
        </p>
      )}
      {menu && <Menu env={env} at={menu} close={() => setMenu(null)} />}
    </div>
  );
}
