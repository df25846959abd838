import type { StylesheetJson } from 'cytoscape';
import { NODE_H, NODE_W } from '../../../workers/layout';

// The canvas's look (light theme, the app's slate and indigo). Redirect edges are curved and
// labelled with the answer that jumps; a cycle is drawn thick and red.
//
// Stacking is by z-index alone (`z-index-compare: manual`): questionnaire boxes, then block boxes,
// then questions and terminals, then the redirects on top, so that an edge's label is never hidden
// under a question box (cytoscape's default draws every edge under every node).
export const canvasStyle: StylesheetJson = [
  { selector: 'node, edge', style: { 'z-index-compare': 'manual', 'z-index': 2 } },
  {
    selector: 'node',
    style: {
      label: 'data(label)',
      'font-family': 'system-ui, sans-serif',
      'font-size': 12,
      color: '#1e293b',
      'min-zoomed-font-size': 7,
      'text-events': 'no',
    },
  },
  {
    selector: 'node.question',
    style: {
      shape: 'round-rectangle',
      width: NODE_W,
      height: NODE_H,
      'background-color': '#ffffff',
      'border-width': 1,
      'border-color': '#94a3b8',
      'text-valign': 'center',
      'text-halign': 'center',
      // Labels come shortened from elements.ts: cytoscape's own ellipsis measures text character by
      // character on every render and made a 1 000-question canvas take seconds per frame.
    },
  },
  {
    selector: 'node.empty',
    style: {
      shape: 'round-rectangle',
      width: NODE_W,
      height: NODE_H,
      'background-opacity': 0,
      'border-width': 1,
      'border-style': 'dashed',
      'border-color': '#cbd5e1',
    },
  },
  {
    selector: 'node.terminal',
    style: {
      shape: 'round-rectangle',
      width: NODE_W,
      height: NODE_H - 8,
      'background-color': '#f1f5f9',
      'border-width': 1,
      'border-style': 'dashed',
      'border-color': '#475569',
      'text-valign': 'center',
      'text-halign': 'center',
      'font-style': 'italic',
    },
  },
  {
    selector: 'node.block',
    style: {
      shape: 'round-rectangle',
      'background-color': '#eef2ff',
      'border-width': 1,
      'border-color': '#a5b4fc',
      'text-valign': 'top',
      'text-halign': 'center',
      'font-weight': 'bold',
      // A plain box behind its questions (see elements.ts), sized from their positions.
      width: 'data(w)',
      height: 'data(h)',
      'z-index': 1,
    },
  },
  {
    selector: 'node.questionnaire',
    style: {
      shape: 'round-rectangle',
      'background-color': '#f8fafc',
      'border-width': 1,
      'border-color': '#cbd5e1',
      'text-valign': 'top',
      'text-halign': 'center',
      'font-size': 14,
      'font-weight': 'bold',
      // A plain node behind its blocks (see elements.ts), sized by the canvas.
      width: 'data(w)',
      height: 'data(h)',
      'z-index': 0,
    },
  },
  { selector: 'node.problem', style: { 'border-color': '#b45309', 'border-width': 2 } },
  {
    selector: 'node:selected',
    style: { 'border-color': '#4f46e5', 'border-width': 3, 'background-color': '#e0e7ff' },
  },
  {
    selector: 'edge',
    style: {
      width: 1.5,
      'curve-style': 'bezier',
      'target-arrow-shape': 'triangle',
      'arrow-scale': 0.8,
      'z-index': 3,
    },
  },
  {
    selector: 'edge.order',
    style: { 'line-color': '#94a3b8', 'target-arrow-color': '#94a3b8', 'curve-style': 'straight' },
  },
  {
    selector: 'edge.redirect',
    style: {
      'line-color': '#6366f1',
      'target-arrow-color': '#6366f1',
      'curve-style': 'unbundled-bezier',
      'control-point-distances': [140],
      label: 'data(label)',
      'font-size': 10,
      color: '#312e81',
      // Drawn over the boxes it crosses: an opaque, outlined tag stays readable on top of a question.
      'text-background-color': '#ffffff',
      'text-background-opacity': 1,
      'text-background-padding': '2px',
      'text-background-shape': 'roundrectangle',
      'text-border-color': '#a5b4fc',
      'text-border-width': 1,
      'text-border-opacity': 1,
    },
  },
  {
    selector: 'edge.cycle',
    style: { 'line-color': '#dc2626', 'target-arrow-color': '#dc2626', width: 4, 'z-index': 4 },
  },
];
