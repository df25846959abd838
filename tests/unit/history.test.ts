import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { edit, HISTORY_LIMIT, openDoc, redo, undo, type EditorDoc } from '../../src/domain/content/history';
import { performCommand } from '../../src/domain/content/commands';
import { checkContent } from '../../src/domain/content/rules';
import type { Change } from '../../src/domain/content/changelog';
import { EMPTY_CONTENT, type ProjectContent } from '../../src/domain/content/model';
import { arbEditSeed, bigProject, commandFor } from './content-fixtures';

// Edits as commands with immer patch pairs: undo and redo restore exactly, the stacks are bounded,
// and each step adds the change-log row of its code.

function start(): ProjectContent {
  return structuredClone(bigProject({ blocks: 2, questions: 3, answers: 2 }));
}

/** Applies seeds in order; returns the document after each edit that applied, and the log rows. */
function run(content: ProjectContent, seeds: Parameters<typeof commandFor>[1][]) {
  let doc = openDoc(content);
  const log: Change[] = [];
  const codes: string[] = [];
  for (const s of seeds) {
    const step = edit(doc, commandFor(doc.content, s));
    if (!step) continue;
    doc = step.doc;
    log.push(step.change);
    codes.push(step.change.code);
  }
  return { doc, log, codes };
}

describe('history', () => {
  it('undoing every edit returns the start, and redoing every edit returns the end', () => {
    fc.assert(
      fc.property(fc.array(arbEditSeed, { maxLength: 40 }), (seeds) => {
        const initial = start();
        const { doc: end } = run(initial, seeds);
        let doc: EditorDoc = end;
        while (doc.undo.length > 0) doc = undo(doc)!.doc;
        expect(doc.content).toEqual(initial);
        while (doc.redo.length > 0) doc = redo(doc)!.doc;
        expect(doc.content).toEqual(end.content);
      }),
      { numRuns: 200 },
    );
  });

  it('logs one row per edit, undo and redo, with the code of the command', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(arbEditSeed, fc.constantFrom('undo' as const, 'redo' as const)), { maxLength: 40 }),
        (steps) => {
          let doc = openDoc(start());
          const log: Change[] = [];
          const expected: Change[] = [];
          for (const s of steps) {
            if (s === 'undo' || s === 'redo') {
              const entry = s === 'undo' ? doc.undo[doc.undo.length - 1] : doc.redo[doc.redo.length - 1];
              const step = s === 'undo' ? undo(doc) : redo(doc);
              expect(step === null).toBe(entry === undefined);
              if (!step) continue;
              expected.push({ code: entry.code, label: entry.label, kind: s });
              doc = step.doc;
              log.push(step.change);
              continue;
            }
            const command = commandFor(doc.content, s);
            const dry = performCommand(doc.content, command);
            const step = edit(doc, command);
            expect(step === null).toBe(dry === null);
            if (!step || !dry) continue;
            expected.push({ code: dry.code, label: dry.label, kind: 'edit' });
            doc = step.doc;
            log.push(step.change);
          }
          expect(log).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never leaves the rules unable to check an edited content', () => {
    fc.assert(
      fc.property(fc.array(arbEditSeed, { maxLength: 30 }), (seeds) => {
        const { doc } = run(start(), seeds);
        expect(Array.isArray(checkContent(doc.content, { projectType: 2 }))).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('maps each command to its spec code', () => {
    let doc = openDoc(structuredClone(EMPTY_CONTENT));
    const codes: string[] = [];
    const apply = (c: Parameters<typeof edit>[1]) => {
      const step = edit(doc, c)!;
      expect(step, c.type).not.toBeNull();
      doc = step.doc;
      codes.push(step.change.code);
    };
    apply({ type: 'questionnaire.add' });
    const qn = doc.content.questionnaires[0];
    apply({ type: 'block.add', questionnaireId: qn.id });
    const [b1, b2] = doc.content.questionnaires[0].blocks;
    apply({ type: 'question.add', blockId: b1.id, question: { text: 'Age?' } });
    const qid = doc.content.questionnaires[0].blocks[0].questions[0].id;
    apply({ type: 'question.update', questionId: qid, patch: { text: 'Your age?' } });
    apply({ type: 'block.update', blockId: b1.id, patch: { name: 'Intro' } });
    apply({ type: 'question.move', questionId: qid, toBlockId: b2.id, index: 0 });
    apply({ type: 'portrait.add' });
    apply({ type: 'question.delete', questionId: qid });
    apply({ type: 'block.delete', blockId: b2.id });
    apply({ type: 'questionnaire.delete', questionnaireId: qn.id });
    expect(codes).toEqual(['004', '004', '005', '008', '009', '012', '003', '006', '011', '007']);
  });

  it('ignores a command that names a missing item or changes nothing', () => {
    const doc = openDoc(start());
    expect(edit(doc, { type: 'question.delete', questionId: 'nope' })).toBeNull();
    const q = doc.content.questionnaires[0].blocks[0].questions[0];
    expect(edit(doc, { type: 'question.update', questionId: q.id, patch: { text: q.text } })).toBeNull();
    expect(edit(doc, { type: 'question.setCategory', questionId: q.id, category: q.category })).toBeNull();
  });

  it('clears redirects and recalls that pointed at a deleted question, and undo brings them back', () => {
    let doc = openDoc(start());
    const [q0, q1, q2] = doc.content.questionnaires[0].blocks[0].questions;
    doc = edit(doc, {
      type: 'redirect.set',
      questionId: q0.id,
      redirect: { kind: 'questionInBlock', target: q2.id },
    })!.doc;
    doc = edit(doc, {
      type: 'question.update',
      questionId: q2.id,
      patch: { recall: { questionId: q1.id, mode: 'selected' } },
    })!.doc;
    const before = doc.content;
    doc = edit(doc, { type: 'question.delete', questionId: q2.id })!.doc;
    expect(doc.content.questionnaires[0].blocks[0].questions[0].redirect).toBeNull();
    doc = edit(doc, { type: 'question.delete', questionId: q1.id })!.doc;
    doc = undo(undo(doc)!.doc)!.doc;
    expect(doc.content).toEqual(before);
  });

  it('creates the target of a "new" redirect in the same step', () => {
    let doc = openDoc(start());
    const q0 = doc.content.questionnaires[0].blocks[0].questions[0];
    doc = edit(doc, {
      type: 'redirect.set',
      questionId: q0.id,
      answerId: q0.answers[0].id,
      redirect: { kind: 'newBlock', target: null },
    })!.doc;
    const blocks = doc.content.questionnaires[0].blocks;
    expect(blocks).toHaveLength(3);
    expect(blocks[0].questions[0].answers[0].redirect).toEqual({ kind: 'newBlock', target: blocks[1].id });
    expect(undo(doc)!.doc.content.questionnaires[0].blocks).toHaveLength(2);
  });

  it('keeps at most HISTORY_LIMIT steps to undo', () => {
    let doc = openDoc(start());
    const qid = doc.content.questionnaires[0].blocks[0].questions[0].id;
    for (let i = 0; i < HISTORY_LIMIT + 10; i++)
      doc = edit(doc, { type: 'question.update', questionId: qid, patch: { text: `t${i}` } })!.doc;
    expect(doc.undo).toHaveLength(HISTORY_LIMIT);
    while (doc.undo.length) doc = undo(doc)!.doc;
    expect(doc.content.questionnaires[0].blocks[0].questions[0].text).toBe('t9');
  });

  it('a new edit after undo drops what could be redone', () => {
    let doc = openDoc(start());
    const qid = doc.content.questionnaires[0].blocks[0].questions[0].id;
    doc = edit(doc, { type: 'question.update', questionId: qid, patch: { text: 'one' } })!.doc;
    doc = undo(doc)!.doc;
    expect(doc.redo).toHaveLength(1);
    doc = edit(doc, { type: 'question.update', questionId: qid, patch: { text: 'two' } })!.doc;
    expect(doc.redo).toHaveLength(0);
    expect(redo(doc)).toBeNull();
  });
});
