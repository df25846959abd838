import type { LayoutStructure, Positions } from './layoutProtocol';

// The canvas's layered layout, our own: questionnaires are bands from top to bottom, their blocks
// columns from left to right in order, a block's questions stacked in order, the redirect terminals
// after them. Order is what the researcher reads, so a fixed grid beats a general graph layout
// (dagre, ELK) here: it is stable under edits (adding a question moves only what follows it) and
// takes about a millisecond for 1 000 questions. Compound nodes (blocks, questionnaires) take their
// size from their children in cytoscape, so only leaves get positions.

export const NODE_W = 220;
export const NODE_H = 44;
const GAP_X = 80;
const GAP_Y = 16;
const BAND_GAP = 120;

export function layout(s: LayoutStructure): Positions {
  const pos: Positions = {};
  let top = 0;
  for (const qn of s.questionnaires) {
    let tallest = 1;
    qn.blocks.forEach((b, j) => {
      const x = j * (NODE_W + GAP_X);
      b.questions.forEach((id, k) => {
        pos[id] = { x, y: top + k * (NODE_H + GAP_Y) };
      });
      let rows = b.questions.length;
      if (b.end) pos[`end:${b.id}`] = { x, y: top + rows++ * (NODE_H + GAP_Y) + GAP_Y };
      tallest = Math.max(tallest, rows);
    });
    // An empty questionnaire still shows: a placeholder node holds its place.
    if (qn.blocks.length === 0) pos[`empty:${qn.id}`] = { x: 0, y: top };
    qn.blocks.forEach((b, j) => {
      if (b.questions.length === 0 && !b.end) pos[`empty:${b.id}`] = { x: j * (NODE_W + GAP_X), y: top };
    });
    if (qn.newQn) pos[`nq:${qn.id}`] = { x: Math.max(1, qn.blocks.length) * (NODE_W + GAP_X), y: top };
    top += tallest * (NODE_H + GAP_Y) + BAND_GAP;
  }
  return pos;
}
