import { describe, expect, it } from 'vitest';
import cytoscape from 'cytoscape';
import { canvasStyle } from '../../src/views/editor/canvas/style';
import { performCommand } from '../../src/domain/content/commands';
import { newAnswer, newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';
import type { ProjectContent } from '../../src/domain/content/model';
import { checkContent } from '../../src/domain/content/rules';
import {
  contentToElements,
  cycleEdges,
  firstLeaves,
  openingView,
  reuseElements,
  structureOf,
  structureText,
} from '../../src/views/editor/canvas/elements';
import { layout, NODE_H, NODE_W } from '../../src/workers/layout';
import { structureKey } from '../../src/workers/layoutProtocol';
import { bigProject } from './content-fixtures';

// The canvas as a pure function of the content, its layout, and the structure commands the outline
// and the canvas send (duplicate, move, rename), each with its change-log code.

const labels = {
  questionnaire: (n: number) => `Q${n}`,
  block: (n: number) => `B${n}`,
  question: (n: number, t: string) => `${n}. ${t}`,
  completeBlock: 'Complete block',
  newQuestionnaire: 'New questionnaire',
  answer: (n: number) => `Answer ${n}`,
};

function sample(): ProjectContent {
  const q1 = newQuestion({
    id: 'q1',
    text: 'One',
    answers: [newAnswer({ id: 'a1', text: 'Yes' }), newAnswer({ id: 'a2', text: 'No' })],
  });
  const q2 = newQuestion({ id: 'q2', text: 'Two', category: 'open' });
  const q3 = newQuestion({ id: 'q3', text: 'Three', category: 'open' });
  q1.answers[0].redirect = { kind: 'block', target: 'b2' };
  q1.answers[1].redirect = { kind: 'completeBlock', target: null };
  q2.redirect = { kind: 'newQuestionnaire', target: 'qn2' };
  return {
    questionnaires: [
      newQuestionnaire({
        id: 'qn1',
        blocks: [newBlock({ id: 'b1', questions: [q1, q2] }), newBlock({ id: 'b2', questions: [q3] })],
      }),
      newQuestionnaire({ id: 'qn2', blocks: [] }),
    ],
    portraits: [],
  };
}

describe('canvas elements', () => {
  it('nests questions in blocks in questionnaires, with redirect edges (no order edges) labelled by the answer', () => {
    const els = contentToElements(sample(), labels, {
      positions: null,
      connections: true,
      cycle: new Set(),
      problemIds: new Set(),
    });
    const byId = new Map(els.map((e) => [e.data.id, e]));
    expect(byId.get('q1')!.data.block).toBe('b1');
    expect(byId.get('b1')!.data.qn).toBe('qn1');
    expect(byId.has('o:q1')).toBe(false);
    expect(byId.get('r:q1:a1')!.data).toMatchObject({ source: 'q1', target: 'b2', label: 'Yes' });
    // "Complete current block" and "new questionnaire" end at terminal nodes.
    expect(byId.get('r:q1:a2')!.data.target).toBe('end:b1');
    expect(byId.get('end:b1')!.data).toMatchObject({ block: 'b1', label: 'Complete block' });
    expect(byId.get('r:q2')!.data.target).toBe('nq:qn1');
    // An empty questionnaire keeps a placeholder so it still shows.
    expect(byId.get('empty:qn2')!.data.qn).toBe('qn2');
  });

  it('leaves the edges out when connections are hidden', () => {
    const els = contentToElements(sample(), labels, {
      positions: null,
      connections: false,
      cycle: new Set(),
      problemIds: new Set(),
    });
    expect(els.filter((e) => e.group === 'edges')).toEqual([]);
  });

  it('marks the redirects of a cycle', () => {
    const c = sample();
    const [q1, q2] = c.questionnaires[0].blocks[0].questions;
    q1.answers.forEach((a) => (a.redirect = null));
    q1.redirect = { kind: 'questionInBlock', target: 'q2' };
    q2.redirect = { kind: 'questionInBlock', target: 'q1' };
    const cycle = cycleEdges(c, checkContent(c, { projectType: 1 }));
    expect([...cycle].sort()).toEqual(['r:q1', 'r:q2']);
    const els = contentToElements(c, labels, {
      positions: null,
      connections: true,
      cycle,
      problemIds: new Set(),
    });
    expect(els.find((e) => e.data.id === 'r:q1')!.classes).toContain('cycle');
  });
});

describe('elements between edits', () => {
  const opts = {
    positions: null,
    connections: true,
    cycle: new Set<string>(),
    problemIds: new Set<string>(),
  };
  it('keeps the objects of unchanged elements, so an edit gives cytoscape only what it changed', () => {
    const c = sample();
    const before = contentToElements(c, labels, opts);
    const edited = performCommand(c, {
      type: 'question.update',
      questionId: 'q2',
      patch: { text: 'Two, edited' },
    })!.content;
    const previous = new Map(before.map((e) => [String(e.data.id), e]));
    const after = reuseElements(contentToElements(edited, labels, opts), previous);
    const changed = after.filter((e) => previous.get(String(e.data.id)) !== e).map((e) => e.data.id);
    expect(changed).toEqual(['q2']);
    expect(after.find((e) => e.data.id === 'q2')!.data.label).toBe('2. Two, edited');
    // A problem mark changes the element's classes: a new object.
    const marked = reuseElements(
      contentToElements(edited, labels, { ...opts, problemIds: new Set(['q3']) }),
      new Map(after.map((e) => [String(e.data.id), e])),
    );
    expect(marked.filter((e) => !after.includes(e)).map((e) => e.data.id)).toEqual(['q3']);
  });

  it('gives the same structure text for a text edit and another for a move', () => {
    const c = sample();
    const renamed = performCommand(c, {
      type: 'question.update',
      questionId: 'q1',
      patch: { text: 'Changed' },
    })!.content;
    expect(structureText(renamed)).toBe(structureText(c));
    const moved = performCommand(c, {
      type: 'question.move',
      questionId: 'q1',
      toBlockId: 'b2',
      index: 0,
    })!.content;
    expect(structureText(moved)).not.toBe(structureText(c));
    expect(structureOf(moved).questionnaires[0].blocks[1].questions).toEqual(['q1', 'q3']);
  });
});

describe('layout', () => {
  it('puts blocks in columns and questions in order, each leaf once; the key follows the structure only', () => {
    const c = sample();
    const s = structureOf(c);
    const pos = layout(s);
    expect(pos.q1.x).toBe(pos.q2.x);
    expect(pos.q2.y).toBeGreaterThan(pos.q1.y);
    expect(pos.q3.x).toBeGreaterThan(pos.q1.x);
    expect(pos['end:b1'].y).toBeGreaterThan(pos.q2.y);
    expect(pos['empty:qn2'].y).toBeGreaterThan(pos['end:b1'].y);
    const renamed = structuredClone(c);
    renamed.questionnaires[0].blocks[0].questions[0].text = 'Changed';
    expect(structureKey(structureOf(renamed))).toBe(structureKey(s));
    const moved = performCommand(c, {
      type: 'question.move',
      questionId: 'q1',
      toBlockId: 'b2',
      index: 0,
    })!.content;
    expect(structureKey(structureOf(moved))).not.toBe(structureKey(s));
  });
});

describe('opening a large project', () => {
  const content = bigProject();
  const positions = layout(structureOf(content));
  const elements = contentToElements(content, labels, {
    positions,
    connections: true,
    cycle: new Set(),
    problemIds: new Set(),
  });
  const leafIds = (els: typeof elements) =>
    els.filter((e) => e.group === 'nodes' && e.data.kind === 'question').map((e) => String(e.data.id));

  it('opens at its top left at full size, and starts the canvas with just what that view shows', () => {
    const view = openingView(positions, 1000, 700);
    // Too large to show whole at 60 % or more: its start, readable, at 100 %.
    expect(view.zoom).toBe(1);
    expect(view.area.x1).toBeLessThan(positions[content.questionnaires[0].blocks[0].questions[0].id].x);
    // The first block's first question is in view; a block far to the right is not.
    const first = content.questionnaires[0].blocks[0];
    const far = content.questionnaires[0].blocks[40];
    // Any part of the question's box on screen.
    const inView = (id: string) => {
      const p = positions[id];
      const { x1, x2, y1, y2 } = view.area;
      return (
        p.x + NODE_W / 2 >= x1 && p.x - NODE_W / 2 <= x2 && p.y + NODE_H / 2 >= y1 && p.y - NODE_H / 2 <= y2
      );
    };
    expect(inView(first.questions[0].id)).toBe(true);
    expect(inView(far.questions[0].id)).toBe(false);

    const start = firstLeaves(elements, 0, view.area);
    const shown = new Set(leafIds(start));
    // Every question the view shows, and none it does not.
    for (const b of content.questionnaires[0].blocks)
      for (const q of b.questions) expect(shown.has(q.id), q.id).toBe(inView(q.id));
    expect(shown.size).toBeGreaterThan(20);
    expect(shown.size).toBeLessThan(100);
    // The boxes of the blocks in view and of the questionnaire, not the other 45 blocks'.
    const boxes = start.filter((e) => e.data.kind === 'block').map((e) => String(e.data.id));
    expect(boxes).toContain(first.id);
    expect(boxes).not.toContain(far.id);
    expect(start.some((e) => e.data.kind === 'questionnaire')).toBe(true);
    // Edges only between what is in.
    const startIds = new Set(start.map((e) => String(e.data.id)));
    for (const e of start.filter((x) => x.group === 'edges'))
      expect(startIds.has(String(e.data.source)) && startIds.has(String(e.data.target))).toBe(true);

    // Later slices add the rest in reading order, each with its block's box.
    const more = firstLeaves(elements, 100, view.area);
    expect(leafIds(more).length).toBe(shown.size + 100);
    const moreIds = new Set(more.map((e) => String(e.data.id)));
    for (const e of more)
      if (e.data.kind === 'question') expect(moreIds.has(String(e.data.block))).toBe(true);
    expect(firstLeaves(elements, Infinity, view.area)).toEqual(elements);
  });

  it('shows a project whole, centred, when it fits at 60 % or more', () => {
    const small = sample();
    const pos = layout(structureOf(small));
    const view = openingView(pos, 1200, 800);
    expect(view.zoom).toBe(1);
    // Four blocks of twelve questions in a smaller view: whole, zoomed out.
    const medium = layout(structureOf(bigProject({ blocks: 4, questions: 12 })));
    const fitted = openingView(medium, 1000, 700);
    expect(fitted.zoom).toBeGreaterThanOrEqual(0.6);
    expect(fitted.zoom).toBeLessThan(1);
    for (const p of Object.values(medium)) {
      expect(p.x).toBeGreaterThan(fitted.area.x1);
      expect(p.y).toBeLessThan(fitted.area.y2);
    }
    for (const p of Object.values(pos)) {
      expect(p.x).toBeGreaterThan(view.area.x1);
      expect(p.x).toBeLessThan(view.area.x2);
    }
    expect(openingView({}, 800, 600)).toMatchObject({ zoom: 1, pan: { x: 0, y: 0 } });
  });
});

describe('structure commands', () => {
  it('duplicates a block with fresh ids and redirects inside the copy pointing at the copy (004)', () => {
    const c = sample();
    c.questionnaires[0].blocks[0].questions[1].redirect = { kind: 'questionInBlock', target: 'q1' };
    const done = performCommand(c, { type: 'block.duplicate', blockId: 'b1' })!;
    expect(done.code).toBe('004');
    const [orig, copy] = done.content.questionnaires[0].blocks;
    expect(copy.id).not.toBe(orig.id);
    expect(copy.questions.map((q) => q.text)).toEqual(['One', 'Two']);
    expect(copy.questions[0].id).not.toBe('q1');
    expect(copy.questions[1].redirect).toEqual({ kind: 'questionInBlock', target: copy.questions[0].id });
    // A redirect leaving the copy keeps its target.
    expect(copy.questions[0].answers[0].redirect).toEqual({ kind: 'block', target: 'b2' });
  });

  it('duplicates a question (005), renames a questionnaire (009), reorders blocks and questionnaires (012)', () => {
    const c = sample();
    const dup = performCommand(c, { type: 'question.duplicate', questionId: 'q2' })!;
    expect(dup.code).toBe('005');
    expect(dup.content.questionnaires[0].blocks[0].questions.map((q) => q.text)).toEqual([
      'One',
      'Two',
      'Two',
    ]);
    const renamed = performCommand(c, {
      type: 'questionnaire.update',
      questionnaireId: 'qn2',
      patch: { name: 'Follow-up' },
    })!;
    expect([renamed.code, renamed.content.questionnaires[1].name]).toEqual(['009', 'Follow-up']);
    const moved = performCommand(c, { type: 'block.move', blockId: 'b2', index: 0 })!;
    expect([moved.code, moved.content.questionnaires[0].blocks.map((b) => b.id)]).toEqual([
      '012',
      ['b2', 'b1'],
    ]);
    const qnMoved = performCommand(c, { type: 'questionnaire.move', questionnaireId: 'qn2', index: 0 })!;
    expect(qnMoved.content.questionnaires.map((q) => q.id)).toEqual(['qn2', 'qn1']);
    const added = performCommand(c, { type: 'questionnaire.add', index: 1, empty: true })!;
    expect(added.content.questionnaires[1].blocks).toEqual([]);
  });
});

describe('canvas style', () => {
  it('stacks every redirect, with its label on an opaque tag, above the question boxes it crosses', () => {
    const cy = cytoscape({ headless: true, styleEnabled: true, style: canvasStyle });
    cy.add(
      contentToElements(sample(), labels, {
        positions: layout(structureOf(sample())),
        connections: true,
        cycle: new Set(),
        problemIds: new Set(),
      }) as cytoscape.ElementDefinition[],
    );
    const z = (id: string) => Number(cy.getElementById(id).style('z-index'));
    const compare = (id: string) => cy.getElementById(id).style('z-index-compare');
    // Cytoscape's default ('auto') draws every edge under every node, labels included.
    for (const id of ['r:q1:a1', 'r:q1:a2', 'q1', 'q3', 'b1', 'qn1']) expect(compare(id)).toBe('manual');
    expect(z('r:q1:a1')).toBeGreaterThan(z('q3'));
    expect(z('r:q1:a2')).toBeGreaterThan(z('end:b1'));
    expect(z('q1')).toBeGreaterThan(z('b1'));
    expect(z('b1')).toBeGreaterThan(z('qn1'));
    expect(Number(cy.getElementById('r:q1:a1').style('text-background-opacity'))).toBe(1);
    cy.destroy();
  });
});
