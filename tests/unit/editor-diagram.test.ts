// Dexie reads the IndexedDB API when it loads (the machine imports the app's database): the fake first.
import 'fake-indexeddb/auto';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { ARCHITECTURE, BEGIN, END, editorDiagram, withDiagram } from '../../scripts/editor-diagram';
import { editorMachine } from '../../src/machines/editor/machine';

// docs/architecture.md draws the editor's statechart from the machine (scripts/editor-diagram.ts):
// the committed drawing must be the one the machine gives today.

describe("the editor machine's diagram in docs/architecture.md", () => {
  it('is the one the machine gives (run `npm run diagram` after changing the machine)', async () => {
    const doc = fs.readFileSync(ARCHITECTURE, 'utf8');
    const from = doc.indexOf(BEGIN);
    const to = doc.indexOf(END);
    expect(from, 'the generated section is missing').toBeGreaterThanOrEqual(0);
    expect(doc.slice(from, to + END.length)).toBe(await editorDiagram());
  });

  it('draws every state of every region, and every state-changing event of the machine', async () => {
    const diagram = await editorDiagram();
    for (const region of Object.values(editorMachine.root.states))
      for (const state of Object.keys(region.states))
        expect(diagram).toContain(`state "${state}" as editor_${region.key}_${state}`);
    for (const event of ['load.retry', 'server.newer', 'conflict.keepMine', 'draft.written [draftCaughtUp]'])
      expect(diagram).toContain(event);
    // The eventless opening branches, which xstate/graph's directed graph leaves out.
    expect(diagram).toContain('editor_doc_starting --> editor_doc_loading: always');
    expect(diagram).toContain('**`autosave`**, a child machine');
  });

  it('changes when the machine does, so a stale drawing is caught', async () => {
    const other = setup({}).createMachine({
      id: 'editor',
      initial: 'a',
      states: { a: { on: { go: 'b' } }, b: {} },
    });
    const doc = fs.readFileSync(ARCHITECTURE, 'utf8');
    const drawn = await editorDiagram(other);
    expect(withDiagram(doc, drawn)).not.toBe(doc);
    expect(drawn).toContain('editor_a --> editor_b: go');
  });
});
