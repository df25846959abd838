// Dexie reads the IndexedDB API when it loads: the fake must come first.
import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { AppDB, type Draft } from '../../src/db/AppDB';
import { deleteDraft, readChangeLog, readDraft, writeDraft } from '../../src/db/drafts';
import { editorMachine } from '../../src/machines/editor/machine';
import type { Loaded } from '../../src/machines/editor/open';
import { edit, redo, undo } from '../../src/domain/content/history';
import type { ChangeLogRow } from '../../src/domain/content/changelog';
import { arbEditSeed, bigProject, commandFor } from './content-fixtures';

// The draft store on fake-indexeddb: one transaction per autosave, the change-log kept beside the
// draft, drafts of other users never shown, and the editor's change-log matching its edits.

let n = 0;
const fresh = () => new AppDB(`db-test-${++n}`);
const project = {
  pid: 7,
  name: 'P',
  type: 1,
  template: 'default',
  status: 1,
  editable: true,
  permissions: { blockSettings: false, customParams: false },
};

function draft(pid: number, userId = 1, patch: Partial<Draft> = {}): Draft {
  return {
    pid,
    userId,
    content: bigProject({ blocks: 1, questions: 2, answers: 2 }),
    baseVersion: 3,
    updatedAt: Date.now(),
    dirty: true,
    project: { ...project, pid },
    ...patch,
  };
}
const logRow = (pid: number, seq: number): ChangeLogRow => ({
  pid,
  seq,
  code: '008',
  at: Date.now(),
  payload: { label: `q${seq}`, kind: 'edit' },
});

describe('draft store', () => {
  it('writes a draft and its rows together, and reads them back in order', async () => {
    const db = fresh();
    await writeDraft(db, { draft: draft(7), rows: [logRow(7, 1), logRow(7, 2)], clearUpTo: null });
    await writeDraft(db, { draft: draft(8), rows: [logRow(8, 1)], clearUpTo: null });
    const r = await readDraft(db, 7, 1);
    expect(r.draft?.baseVersion).toBe(3);
    expect(r.rows.map((x) => x.seq)).toEqual([1, 2]);
    expect(r.lastSeq).toBe(2);
  });

  it('writes nothing when any part of the autosave fails', async () => {
    const db = fresh();
    await writeDraft(db, { draft: draft(7, 1, { baseVersion: 1 }), rows: [logRow(7, 1)], clearUpTo: null });
    // A row with the id of an existing row makes bulkAdd fail inside the transaction.
    const existing = (await readChangeLog(db, 7))[0];
    await expect(
      writeDraft(db, {
        draft: draft(7, 1, { baseVersion: 2 }),
        rows: [{ ...logRow(7, 2), id: existing.id }],
        clearUpTo: null,
      }),
    ).rejects.toThrow();
    const r = await readDraft(db, 7, 1);
    expect(r.draft?.baseVersion).toBe(1);
    expect(r.rows.map((x) => x.seq)).toEqual([1]);
  });

  it('clears the rows that reached the server and keeps later ones', async () => {
    const db = fresh();
    await writeDraft(db, { draft: draft(7), rows: [1, 2, 3, 4].map((s) => logRow(7, s)), clearUpTo: null });
    await writeDraft(db, { draft: draft(7, 1, { dirty: true }), rows: [logRow(7, 5)], clearUpTo: 3 });
    expect((await readChangeLog(db, 7)).map((r) => r.seq)).toEqual([4, 5]);
  });

  it('never shows another user their colleague’s draft, but keeps counting its rows', async () => {
    const db = fresh();
    await writeDraft(db, { draft: draft(7, 1), rows: [logRow(7, 1)], clearUpTo: null });
    const other = await readDraft(db, 7, 2);
    expect(other.draft).toBeNull();
    expect(other.rows).toEqual([]);
    expect(other.lastSeq).toBe(1);
  });

  it('deletes a draft with its rows', async () => {
    const db = fresh();
    await writeDraft(db, { draft: draft(7), rows: [logRow(7, 1)], clearUpTo: null });
    await deleteDraft(db, 7);
    expect(await readDraft(db, 7, 1)).toEqual({ draft: null, rows: [], lastSeq: 0 });
  });

  it('survives closing and reopening the database', async () => {
    const name = `db-test-reopen-${++n}`;
    const first = new AppDB(name);
    await writeDraft(first, { draft: draft(7), rows: [logRow(7, 1)], clearUpTo: null });
    first.close();
    const second = new AppDB(name);
    expect((await readDraft(second, 7, 1)).rows).toHaveLength(1);
  });
});

describe('editor autosave into Dexie', () => {
  const loaded = (content = bigProject({ blocks: 2, questions: 3, answers: 2 })): Loaded => ({
    project,
    content,
    baseVersion: 1,
    savedContent: content,
    source: 'server',
    setAside: null,
    changes: [],
    lastSeq: 0,
    clearLogUpTo: null,
    persist: false,
  });

  it('stores one change-log row per edit, undo and redo, matching them, with the final content as the draft', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(arbEditSeed, fc.constantFrom('undo' as const, 'redo' as const)), {
          minLength: 1,
          maxLength: 25,
        }),
        async (steps) => {
          const db = fresh();
          const start = loaded();
          // The load is given directly: this test is about the autosave, not the server.
          const machine = editorMachine.provide({ actors: { loadProject: fromPromise(async () => start) } });
          const actor = createActor(machine, { input: { pid: 7, userId: 1, db } }).start();
          await waitFor(actor, (s) => (s.value as { doc: string }).doc === 'saved');
          // Each step tried first on the actor's own document gives the row it must log.
          const expected: string[] = [];
          for (const s of steps) {
            const doc = actor.getSnapshot().context.doc;
            const command = s === 'undo' || s === 'redo' ? null : commandFor(doc.content, s);
            const step = s === 'undo' ? undo(doc) : s === 'redo' ? redo(doc) : edit(doc, command!);
            if (step) expected.push(`${step.change.code}:${step.change.kind}:${step.change.label}`);
            if (s === 'undo') actor.send({ type: 'history.undo' });
            else if (s === 'redo') actor.send({ type: 'history.redo' });
            else actor.send({ type: 'content.edit', command: command! });
          }
          const final = actor.getSnapshot().context.doc.content;
          // Undone back to the loaded (saved) version: the draft is clean again.
          const backAtSaved = actor.getSnapshot().context.doc.undo.length === 0;
          actor.send({ type: 'draft.flush' });
          await waitFor(
            actor,
            (s) =>
              (s.value as { autosave: string }).autosave === 'idle' &&
              s.context.writtenRevision >= s.context.draftRevision,
          );
          actor.stop();
          const stored = await readDraft(db, 7, 1);
          expect(stored.rows.map((r) => `${r.code}:${r.payload.kind}:${r.payload.label}`)).toEqual(expected);
          if (expected.length > 0) {
            expect(stored.draft?.content).toEqual(final);
            expect(stored.draft?.dirty).toBe(!backAtSaved);
          }
          db.close();
        },
      ),
      { numRuns: 40 },
    );
  });

  it('writes many quick edits in few transactions, not one per edit', async () => {
    const db = fresh();
    let writes = 0;
    const original = db.transaction.bind(db) as (...args: unknown[]) => unknown;
    (db as unknown as { transaction: (...args: unknown[]) => unknown }).transaction = (
      ...args: unknown[]
    ) => {
      if (args[0] === 'rw') writes++;
      return original(...args);
    };
    const start = loaded();
    const machine = editorMachine.provide({ actors: { loadProject: fromPromise(async () => start) } });
    const actor = createActor(machine, { input: { pid: 7, userId: 1, db } }).start();
    await waitFor(actor, (s) => (s.value as { doc: string }).doc === 'saved');
    const qid = start.content.questionnaires[0].blocks[0].questions[0].id;
    for (let i = 0; i < 50; i++)
      actor.send({
        type: 'content.edit',
        command: { type: 'question.update', questionId: qid, patch: { text: `typing ${i}` } },
      });
    await waitFor(
      actor,
      (s) =>
        (s.value as { autosave: string }).autosave === 'idle' &&
        s.context.writtenRevision >= s.context.draftRevision,
      { timeout: 3000 },
    );
    expect(writes).toBe(1);
    expect(await readChangeLog(db, 7)).toHaveLength(50);
    actor.stop();
  });
});
