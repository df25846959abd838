import type { Core, ElementDefinition } from 'cytoscape';
import type { CanvasElement } from './elements';

// Diffs the canvas's elements into cytoscape: adds what is new, removes what is gone, and touches
// only the elements whose data, classes or position changed, in one batch. An element that is the
// same object as last time is skipped at once (elements.ts reuses the objects of unchanged
// elements); another is compared by a string of each of its parts, so a text edit on a
// 1 000-question canvas updates one node, not three thousand.
// (react-cytoscapejs's own patch re-read every element through cytoscape's collection API on each
// render and cost seconds at this size: see docs/decisions/editor.md.)

/** Per element: the definition applied, and its data, classes and position as strings, to compare each part on its own. */
export type Applied = Map<string, { el: CanvasElement; data: string; classes: string; pos: string }>;

const partsOf = (e: CanvasElement) => ({
  el: e,
  data: JSON.stringify(e.data),
  classes: e.classes ?? '',
  pos: e.position ? `${e.position.x},${e.position.y}` : '',
});

export function applyElements(cy: Core, applied: Applied, next: CanvasElement[]): Applied {
  const now: Applied = new Map();
  const toAdd: ElementDefinition[] = [];
  const changed: {
    e: CanvasElement;
    before: { data: string; classes: string; pos: string };
    after: { data: string; classes: string; pos: string };
  }[] = [];
  for (const e of next) {
    const id = String(e.data.id);
    const same = applied.get(id);
    if (same !== undefined && same.el === e) {
      now.set(id, same);
      continue;
    }
    const after = partsOf(e);
    now.set(id, after);
    const before = applied.get(id);
    if (before === undefined) toAdd.push(e as ElementDefinition);
    else if (before.data !== after.data || before.classes !== after.classes || before.pos !== after.pos)
      changed.push({ e, before, after });
  }
  if (!toAdd.length && !changed.length && applied.size === now.size) return now;
  cy.batch(() => {
    const gone = [...applied.keys()].filter((id) => !now.has(id));
    if (gone.length) {
      const rm = cy.collection();
      for (const id of gone) rm.merge(cy.getElementById(id));
      cy.remove(rm);
    }
    for (const { e, before, after } of changed) {
      const el = cy.getElementById(String(e.data.id));
      // An edge whose ends changed is re-created: cytoscape edges cannot change ends.
      if (
        e.group === 'edges' &&
        (el.data('source') !== e.data.source || el.data('target') !== e.data.target)
      ) {
        cy.remove(el);
        toAdd.push(e as ElementDefinition);
        continue;
      }
      // Each call restyles the element: only the parts that changed.
      if (before.data !== after.data) el.data(e.data);
      if (before.classes !== after.classes) el.classes(after.classes);
      if (before.pos !== after.pos && e.position) el.position(e.position);
    }
    // Nodes before edges: an edge needs its ends. Copies: cytoscape keeps the data and position
    // objects it is given and changes them in place (a drag), and ours are reused between renders.
    if (toAdd.length)
      cy.add(
        toAdd
          .sort((a, b) => (a.group === b.group ? 0 : a.group === 'nodes' ? -1 : 1))
          .map((e) => ({
            ...e,
            data: { ...e.data },
            ...(e.position ? { position: { ...e.position } } : {}),
          })),
      );
  });
  return now;
}
