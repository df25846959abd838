import type { Block, ProjectContent, Redirect } from '../../../domain/content/model';
import type { Problem } from '../../../domain/content/problems';
import { NODE_H, NODE_W } from '../../../workers/layout';
import type { LayoutBlock, LayoutStructure, Positions } from '../../../workers/layoutProtocol';

// The canvas as a pure function of the content: cytoscape element definitions (nodes, edges, classes
// for problems), which the component diffs into cytoscape. Cytoscape never owns data: every edit
// goes through the editor machine and comes back here.
//
// No compound nodes: questionnaires and blocks are plain boxes drawn behind their leaves, sized and
// placed here from the leaves' positions (w, h in their data). With compounds in the graph cytoscape
// restyles, for every style property of every element, the element with its parents, descendants and
// their edges: three quarters of the first frame at 1 000 questions, and most of each click or edit.
// A leaf names its block in `block` (its questionnaire in `qn`); a block its questionnaire in `qn`.
//
// Ids: a node has its item's id (questionnaire, block, question); terminals are `end:<block>`
// ("complete current block") and `nq:<questionnaire>` ("new questionnaire"); `empty:<id>` holds the
// place of an empty block or questionnaire. Edges: `r:<question>` for a question's redirect,
// `r:<question>:<answer>` for an answer's. The order inside a block has no edges: the questions are
// stacked top down in their block and numbered, and ~1 000 order edges doubled what cytoscape styled
// and drew at 1 000 questions (docs/decisions/editor.md).

export interface CanvasLabels {
  questionnaire: (n: number, name: string | undefined) => string;
  block: (n: number, name: string) => string;
  question: (n: number, text: string) => string;
  completeBlock: string;
  newQuestionnaire: string;
  answer: (n: number) => string;
}

export interface CanvasElement {
  group: 'nodes' | 'edges';
  data: Record<string, string | number>;
  position?: { x: number; y: number };
  classes?: string;
  grabbable?: boolean;
}

/** Fits a question node (220 px at 12 px type); longer texts end with an ellipsis. */
const LABEL_MAX = 30;
const short = (s: string) => (s.length > LABEL_MAX ? `${s.slice(0, LABEL_MAX - 1)}…` : s);

/** A block's part of the structure, with its text for comparing structures. */
interface BlockStructure {
  block: LayoutBlock;
  /** Some redirect of the block goes to "new questionnaire". */
  newQn: boolean;
  text: string;
}

// Content is immutable: an unchanged block is the same object, and its structure is not walked again.
const blockStructures = new WeakMap<Block, BlockStructure>();

function blockStructure(b: Block): BlockStructure {
  let s = blockStructures.get(b);
  if (s) return s;
  let end = false;
  let newQn = false;
  for (const q of b.questions) {
    if (q.redirect?.kind === 'completeBlock') end = true;
    if (q.redirect?.kind === 'newQuestionnaire') newQn = true;
    for (const a of q.answers) {
      if (a.redirect?.kind === 'completeBlock') end = true;
      if (a.redirect?.kind === 'newQuestionnaire') newQn = true;
    }
  }
  const questions = b.questions.map((q) => q.id);
  s = {
    block: { id: b.id, questions, end },
    newQn,
    text: `B${b.id}${end ? '+' : ''}${newQn ? '*' : ''}:${questions.join(',')}`,
  };
  blockStructures.set(b, s);
  return s;
}

/** What the layout needs: the ids in their places. */
export function structureOf(content: ProjectContent): LayoutStructure {
  return {
    questionnaires: content.questionnaires.map((qn) => {
      const blocks = qn.blocks.map(blockStructure);
      return { id: qn.id, blocks: blocks.map((b) => b.block), newQn: blocks.some((b) => b.newQn) };
    }),
  };
}

/** A text that two contents share exactly when they have the same structure (structureOf). */
export function structureText(content: ProjectContent): string {
  return content.questionnaires
    .map((qn) => `Q${qn.id}|${qn.blocks.map((b) => blockStructure(b).text).join('|')}`)
    .join('\n');
}

/** Edge ids of the redirects that form cycles, from the rules' paths. */
export function cycleEdges(content: ProjectContent, problems: readonly Problem[]): Set<string> {
  const out = new Set<string>();
  for (const p of problems) {
    if (p.rule !== 'redirectCycle') continue;
    for (const path of p.redirects ?? []) {
      const m =
        /^questionnaires\.(\d+)\.blocks\.(\d+)\.questions\.(\d+)(?:\.answers\.(\d+))?\.redirect$/.exec(path);
      const q = m && content.questionnaires[+m[1]]?.blocks[+m[2]]?.questions[+m[3]];
      if (!q) continue;
      if (m![4] === undefined) out.add(`r:${q.id}`);
      else {
        const a = q.answers[+m![4]];
        if (a) out.add(`r:${q.id}:${a.id}`);
      }
    }
  }
  return out;
}

/** Whether two element definitions say the same (data, classes, position, grabbable). */
function sameElement(a: CanvasElement, b: CanvasElement): boolean {
  if (a.group !== b.group || a.classes !== b.classes || a.grabbable !== b.grabbable) return false;
  if (a.position?.x !== b.position?.x || a.position?.y !== b.position?.y) return false;
  let n = 0;
  for (const k in a.data) {
    if (a.data[k] !== b.data[k]) return false;
    n++;
  }
  for (const _ in b.data) n--;
  return n === 0;
}

/**
 * The elements, each the previous call's object when nothing in it changed: the diff into cytoscape
 * (applyElements.ts) then skips it by identity, and an edit touches only the elements it changed.
 */
export function reuseElements(
  next: CanvasElement[],
  previous: ReadonlyMap<string, CanvasElement>,
): CanvasElement[] {
  return next.map((e) => {
    const old = previous.get(String(e.data.id));
    return old !== undefined && sameElement(old, e) ? old : e;
  });
}

export function contentToElements(
  content: ProjectContent,
  labels: CanvasLabels,
  opts: { positions: Positions | null; connections: boolean; cycle: Set<string>; problemIds: Set<string> },
): CanvasElement[] {
  const nodes: CanvasElement[] = [];
  const edges: CanvasElement[] = [];
  const ids = new Set<string>();
  const pos = (id: string) => opts.positions?.[id];
  const leaf = (data: CanvasElement['data'], classes: string) => {
    const p = pos(String(data.id));
    nodes.push(p ? { group: 'nodes', data, position: p, classes } : { group: 'nodes', data, classes });
  };
  const problem = (id: string) => (opts.problemIds.has(id) ? ' problem' : '');

  content.questionnaires.forEach((qn, i) => {
    ids.add(qn.id);
    // Not a compound parent: cytoscape restyles a node's parents and their every descendant with
    // it, so a questionnaire holding 1 000 questions made each click and edit walk all of them.
    // It is a box drawn behind its blocks, sized from its leaves' positions (qn: in the data).
    nodes.push({
      group: 'nodes',
      data: { id: qn.id, kind: 'questionnaire', label: labels.questionnaire(i + 1, qn.name), w: 0, h: 0 },
      classes: `questionnaire${problem(qn.id)}`,
      grabbable: false,
    });
    if (qn.blocks.length === 0) leaf({ id: `empty:${qn.id}`, qn: qn.id, kind: 'empty', label: '' }, 'empty');
    let n = 0;
    qn.blocks.forEach((b, j) => {
      ids.add(b.id);
      nodes.push({
        group: 'nodes',
        data: { id: b.id, qn: qn.id, kind: 'block', label: labels.block(j + 1, b.name), w: 0, h: 0 },
        classes: `block${problem(b.id)}`,
        grabbable: false,
      });
      if (b.questions.length === 0)
        leaf({ id: `empty:${b.id}`, block: b.id, kind: 'empty', label: '' }, 'empty');
      b.questions.forEach((q) => {
        ids.add(q.id);
        leaf(
          { id: q.id, block: b.id, kind: 'question', label: labels.question(++n, q.text) },
          `question${problem(q.id)}`,
        );
      });
    });
  });

  if (!opts.connections) return nodes;

  const terminals = new Set<string>();
  const targetOf = (r: Redirect, qnId: string, blockId: string): string | null => {
    if (r.kind === 'completeBlock') return `end:${blockId}`;
    if (r.kind === 'newQuestionnaire') return `nq:${qnId}`;
    return r.target && ids.has(r.target) ? r.target : null;
  };
  const redirect = (
    id: string,
    from: string,
    r: Redirect | null,
    qnId: string,
    blockId: string,
    label: string,
  ) => {
    if (!r) return;
    const to = targetOf(r, qnId, blockId);
    if (!to) return;
    if (to.startsWith('end:') || to.startsWith('nq:'))
      terminals.add(`${to}|${to.startsWith('end:') ? blockId : qnId}`);
    edges.push({
      group: 'edges',
      data: { id, source: from, target: to, label },
      classes: `redirect${opts.cycle.has(id) ? ' cycle' : ''}`,
    });
  };

  for (const qn of content.questionnaires)
    for (const b of qn.blocks)
      b.questions.forEach((q) => {
        redirect(`r:${q.id}`, q.id, q.redirect, qn.id, b.id, '');
        q.answers.forEach((a, m) =>
          redirect(
            `r:${q.id}:${a.id}`,
            q.id,
            a.redirect,
            qn.id,
            b.id,
            short(a.text.trim() || labels.answer(m + 1)),
          ),
        );
      });

  for (const t of terminals) {
    const [id, parent] = t.split('|');
    const end = id.startsWith('end:');
    leaf(
      {
        id,
        ...(end ? { block: parent } : { qn: parent }),
        kind: 'terminal',
        label: end ? labels.completeBlock : labels.newQuestionnaire,
      },
      'terminal',
    );
  }
  boxContainers(nodes, opts.positions);
  return [...nodes, ...edges];
}

/** A block's padding around its leaves, and the room its label takes above it. */
export const BLOCK_PAD = 12;
const BLOCK_LABEL = 20;
/** Room around a questionnaire's leaves: the block's padding and label, then its own padding. */
const QN_PAD = { x: BLOCK_PAD + 24, top: BLOCK_PAD + BLOCK_LABEL + 24, bottom: BLOCK_PAD + 24 };

type Box = { x1: number; y1: number; x2: number; y2: number };
const grow = (boxes: Map<string, Box>, owner: string, x: number, y: number) => {
  const b = boxes.get(owner);
  if (!b) boxes.set(owner, { x1: x, y1: y, x2: x, y2: y });
  else {
    b.x1 = Math.min(b.x1, x);
    b.y1 = Math.min(b.y1, y);
    b.x2 = Math.max(b.x2, x);
    b.y2 = Math.max(b.y2, y);
  }
};

/** Sizes and places each block's and questionnaire's box around its leaves (questions, terminals, placeholders). */
function boxContainers(nodes: CanvasElement[], positions: Positions | null) {
  if (!positions) return;
  const qnOf = new Map<string, string>();
  for (const n of nodes) if (n.data.kind === 'block') qnOf.set(String(n.data.id), String(n.data.qn));
  const blocks = new Map<string, Box>();
  const qns = new Map<string, Box>();
  for (const n of nodes) {
    if (!n.position || n.data.kind === 'questionnaire' || n.data.kind === 'block') continue;
    const { x, y } = n.position;
    const block = n.data.block !== undefined ? String(n.data.block) : undefined;
    if (block !== undefined) grow(blocks, block, x, y);
    const qn =
      n.data.qn !== undefined ? String(n.data.qn) : block !== undefined ? qnOf.get(block) : undefined;
    if (qn !== undefined) grow(qns, qn, x, y);
  }
  for (const n of nodes) {
    const kind = n.data.kind;
    const b =
      kind === 'questionnaire'
        ? qns.get(String(n.data.id))
        : kind === 'block'
          ? blocks.get(String(n.data.id))
          : undefined;
    if (!b) continue;
    const pad = kind === 'block' ? { x: BLOCK_PAD, top: BLOCK_PAD, bottom: BLOCK_PAD } : QN_PAD;
    const x1 = b.x1 - NODE_W / 2 - pad.x;
    const x2 = b.x2 + NODE_W / 2 + pad.x;
    const y1 = b.y1 - NODE_H / 2 - pad.top;
    const y2 = b.y2 + NODE_H / 2 + pad.bottom;
    n.data.w = x2 - x1;
    n.data.h = y2 - y1;
    n.position = { x: (x1 + x2) / 2, y: (y1 + y2) / 2 };
  }
}

export { short as shortLabel };

/** A rectangle of the graph, in model coordinates. */
export interface Area {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** A node's box, from its position and size (a leaf's fixed size, a box's from its data). */
function nodeArea(e: CanvasElement): Area | null {
  if (!e.position) return null;
  const box = e.data.kind === 'questionnaire' || e.data.kind === 'block';
  const hw = box ? Number(e.data.w) / 2 : NODE_W / 2;
  const hh = box ? Number(e.data.h) / 2 : NODE_H / 2;
  const { x, y } = e.position;
  return { x1: x - hw, y1: y - hh, x2: x + hw, y2: y + hh };
}

const overlaps = (a: Area, b: Area) => a.x1 <= b.x2 && b.x1 <= a.x2 && a.y1 <= b.y2 && b.y1 <= a.y2;

/**
 * Where a project opens in a view of `width` × `height` pixels: all of it, centred, when it fits at
 * a readable zoom (0.6 to 1); else its top left at the readable zoom that shows the most. Worked out
 * from the positions, not asked of cytoscape: the bounds of every element would measure every label
 * first, seconds at 1 000 questions. `area` is the part of the graph the view shows.
 */
export function openingView(
  positions: Positions,
  width: number,
  height: number,
): { zoom: number; pan: { x: number; y: number }; area: Area } {
  const pts = Object.values(positions);
  let zoom = 1;
  let pan = { x: 0, y: 0 };
  if (pts.length) {
    const pad = 48;
    const x1 = Math.min(...pts.map((p) => p.x)) - NODE_W / 2 - pad;
    const y1 = Math.min(...pts.map((p) => p.y)) - NODE_H / 2 - pad;
    const x2 = Math.max(...pts.map((p) => p.x)) + NODE_W / 2 + pad;
    const y2 = Math.max(...pts.map((p) => p.y)) + NODE_H / 2 + pad;
    const fit = Math.min(1, width / (x2 - x1), height / (y2 - y1));
    const fits = fit >= 0.6;
    zoom = fits ? fit : 1;
    pan = fits
      ? { x: (width - (x1 + x2) * zoom) / 2, y: (height - (y1 + y2) * zoom) / 2 }
      : { x: -x1 * zoom, y: -y1 * zoom };
  }
  const area = {
    x1: -pan.x / zoom,
    y1: -pan.y / zoom,
    x2: (width - pan.x) / zoom,
    y2: (height - pan.y) / zoom,
  };
  return { zoom, pan, area };
}

/**
 * The elements a large project's canvas starts with: every node within `area` (the opening view),
 * then the first `leaves` other leaves in reading order, the boxes of the blocks and questionnaires
 * those belong to, and the edges between what is in. The canvas adds the rest in slices so that no
 * frame styles them all at once, and the first frame styles and draws only what it shows.
 */
export function firstLeaves(elements: CanvasElement[], leaves: number, area: Area | null): CanvasElement[] {
  const seen = (e: CanvasElement) => {
    const a = area && nodeArea(e);
    return a ? overlaps(a, area!) : false;
  };
  const isBox = (e: CanvasElement) => e.data.kind === 'questionnaire' || e.data.kind === 'block';
  const qnOfBlock = new Map<string, string>();
  for (const e of elements)
    if (e.group === 'nodes' && e.data.kind === 'block') qnOfBlock.set(String(e.data.id), String(e.data.qn));
  // The leaves first, and the boxes they need.
  const ids = new Set<string>();
  let n = 0;
  for (const e of elements) {
    if (e.group !== 'nodes' || isBox(e)) continue;
    if (!seen(e) && n++ >= leaves) continue;
    ids.add(String(e.data.id));
    const block = e.data.block !== undefined ? String(e.data.block) : undefined;
    if (block !== undefined) ids.add(block);
    const qn =
      e.data.qn !== undefined ? String(e.data.qn) : block !== undefined ? qnOfBlock.get(block) : undefined;
    if (qn !== undefined) ids.add(qn);
  }
  const out: CanvasElement[] = [];
  for (const e of elements) {
    if (e.group === 'nodes') {
      if (ids.has(String(e.data.id)) || (isBox(e) && seen(e))) out.push(e);
    } else if (ids.has(String(e.data.source)) && ids.has(String(e.data.target))) out.push(e);
  }
  return out;
}
