// Dexie reads the IndexedDB API when it loads: the fake must come first.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, setup, waitFor, type AnyActorRef } from 'xstate';
import { AppDB, type Draft } from '../../src/db/AppDB';
import { readChangeLog, readDraft } from '../../src/db/drafts';
import { changeRow } from '../../src/domain/content/changeRow';
import { AUTOSAVE_MS, autosaveMachine, type AutosaveReport } from '../../src/machines/editor/autosave';
import type { DraftWriteInput, DraftWritten } from '../../src/machines/editor/persistence';
import { bigProject } from '../unit/content-fixtures';

// The editor's autosave child on its own (src/machines/editor/autosave.ts): it writes the draft of
// the moment to Dexie (fake-indexeddb) at most every AUTOSAVE_MS, not restarted by further changes,
// at once on a flush, again after a write that changes overtook, and reports each write or failure
// to its parent.

let n = 0;
const project = {
  pid: 7,
  name: 'P',
  type: 1,
  template: 'default',
  status: 1,
  editable: true,
  permissions: { blockSettings: false, customParams: false },
};

/** What the editor would hand out: a revision that grows with every change, and its rows. */
function screen(db: AppDB) {
  const state = { revision: 0, rows: [] as ReturnType<typeof changeRow>[], writtenSeq: 0 };
  const content = bigProject({ blocks: 1, questions: 2, answers: 2 });
  return {
    state,
    change() {
      state.revision++;
      state.rows.push(changeRow(7, state.rows.length + 1, '008', `edit ${state.revision}`, 'edit'));
    },
    read: (): DraftWriteInput => ({
      db,
      revision: state.revision,
      clearUpTo: null,
      rows: state.rows.filter((r) => r.seq > state.writtenSeq),
      draft: {
        pid: 7,
        userId: 1,
        content,
        baseVersion: 1,
        updatedAt: Date.now(),
        dirty: true,
        project,
      } satisfies Draft,
    }),
  };
}

/** A parent that keeps what the autosave tells it. */
function parent() {
  const heard: AutosaveReport[] = [];
  const actor = createActor(
    setup({}).createMachine({ on: { '*': { actions: ({ event }) => heard.push(event as AutosaveReport) } } }),
  ).start();
  return { heard, ref: actor as unknown as AnyActorRef };
}

function start(db: AppDB, logic = autosaveMachine) {
  const s = screen(db);
  const p = parent();
  const actor = createActor(logic, { input: { read: s.read, parent: p.ref } }).start();
  return { s, p, actor };
}

const idle = (actor: ReturnType<typeof start>['actor']) =>
  waitFor(actor, (snap) => snap.value === 'idle', { timeout: 3000 });

describe('the autosave child', () => {
  it('writes a burst of changes once, AUTOSAVE_MS after the first, with every row', async () => {
    const db = new AppDB(`autosave-${++n}`);
    let writes = 0;
    const original = db.transaction.bind(db) as (...args: unknown[]) => unknown;
    (db as unknown as { transaction: (...args: unknown[]) => unknown }).transaction = (...args) => {
      if (args[0] === 'rw') writes++;
      return original(...args);
    };
    const { s, p, actor } = start(db);
    const t0 = Date.now();
    for (let i = 0; i < 20; i++) {
      s.change();
      actor.send({ type: 'draft.changed' });
    }
    expect(actor.getSnapshot().value).toBe('waiting');
    await waitFor(actor, (snap) => snap.value === 'writing', { timeout: 3000 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(AUTOSAVE_MS - 5);
    await idle(actor);
    expect(writes).toBe(1);
    expect(p.heard).toEqual([{ type: 'draft.written', revision: 20, seq: 20, clearUpTo: null }]);
    expect(await readChangeLog(db, 7)).toHaveLength(20);
    expect((await readDraft(db, 7, 1)).draft?.dirty).toBe(true);
    actor.stop();
  });

  it('writes at once on a flush, and not on a flush with nothing to write', async () => {
    const db = new AppDB(`autosave-${++n}`);
    const { s, p, actor } = start(db);
    actor.send({ type: 'draft.flush' });
    expect(actor.getSnapshot().value).toBe('idle');
    s.change();
    actor.send({ type: 'draft.changed' });
    const t0 = Date.now();
    actor.send({ type: 'draft.flush' });
    expect(actor.getSnapshot().value).toBe('writing');
    await idle(actor);
    expect(Date.now() - t0).toBeLessThan(AUTOSAVE_MS);
    expect(p.heard.map((e) => e.type)).toEqual(['draft.written']);
    actor.stop();
  });

  it('writes again after a write that changes overtook, then rests', async () => {
    const db = new AppDB(`autosave-${++n}`);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let calls = 0;
    const logic = autosaveMachine.provide({
      actors: {
        persistDraft: fromPromise<DraftWritten, DraftWriteInput>(async ({ input }) => {
          if (++calls === 1) await held;
          return { revision: input.revision, seq: input.rows.at(-1)?.seq ?? -1, clearUpTo: null };
        }),
      },
    });
    const { s, p, actor } = start(db, logic);
    s.change();
    actor.send({ type: 'draft.changed' });
    actor.send({ type: 'draft.flush' });
    // A change while the first write runs: that write reports revision 1, and a second one follows.
    s.change();
    actor.send({ type: 'draft.changed' });
    release();
    await waitFor(actor, (snap) => snap.value === 'waiting', { timeout: 3000 });
    await idle(actor);
    expect(calls).toBe(2);
    expect(p.heard.map((e) => (e.type === 'draft.written' ? e.revision : e.type))).toEqual([1, 2]);
    actor.stop();
  });

  it('reports a failed write and writes again on the next change', async () => {
    const db = new AppDB(`autosave-${++n}`);
    let fail = true;
    const logic = autosaveMachine.provide({
      actors: {
        persistDraft: fromPromise<DraftWritten, DraftWriteInput>(async ({ input }) => {
          if (fail) throw new Error('QuotaExceededError');
          return { revision: input.revision, seq: -1, clearUpTo: null };
        }),
      },
    });
    const { s, p, actor } = start(db, logic);
    s.change();
    actor.send({ type: 'draft.changed' });
    actor.send({ type: 'draft.flush' });
    await idle(actor);
    expect(p.heard).toHaveLength(1);
    expect(p.heard[0].type).toBe('draft.failed');
    expect(String((p.heard[0] as { error: unknown }).error)).toContain('QuotaExceededError');
    fail = false;
    s.change();
    actor.send({ type: 'draft.changed' });
    actor.send({ type: 'draft.flush' });
    await idle(actor);
    expect(p.heard.at(-1)).toMatchObject({ type: 'draft.written', revision: 2 });
    actor.stop();
  });
});
