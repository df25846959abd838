import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { AppDB, type Draft } from '../../src/db/AppDB';
import { readDraft, writeDraft } from '../../src/db/drafts';
import { editorMachine } from '../../src/machines/editor/machine';
import { openedLocally, openProject, type Loaded } from '../../src/machines/editor/open';
import { ApiError } from '../../src/api/client';
import type { ProjectDocument, SaveResult } from '../../src/api/content';
import { performCommand } from '../../src/domain/content/commands';
import type { ProjectContent } from '../../src/domain/content/model';
import { bigProject } from './content-fixtures';

// Issue 25, part 3: a project opened before on this device opens from its local copy (the Dexie
// draft) without waiting for the server, marked "checking" (source 'local'); the server's answer
// then changes nothing (same version), replaces a copy without edits (newer version), or is merged
// with edits made meanwhile (the three-way merge). A project never opened here waits for the server.

let n = 0;
const fresh = () => new AppDB(`local-first-${++n}`);
const project = {
  pid: 7,
  name: 'P',
  type: 1,
  template: 'default',
  status: 1,
  editable: true,
  permissions: { blockSettings: false, customParams: false },
};
const content = () => bigProject({ blocks: 2, questions: 2, answers: 2 });
const reword = (c: ProjectContent, id: string, text: string) =>
  performCommand(c, { type: 'question.update', questionId: id, patch: { text } })!.content;
const texts = (c: ProjectContent) =>
  c.questionnaires[0].blocks.flatMap((b) => b.questions.map((q) => q.text));

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const serverDoc = (c: ProjectContent, version: number): ProjectDocument => ({
  ...project,
  content: c,
  version,
  updatedAt: 1,
});

/** The editor with the server's answer in the test's hands (and saves that never reach it). */
function start(db: AppDB, server: Promise<ProjectDocument>, localFirst = true) {
  let asked = 0;
  const machine = editorMachine.provide({
    actors: {
      loadProject: fromPromise(({ input }: { input: Parameters<typeof openProject>[0] }) =>
        openProject(input, {
          stored: readDraft(input.db, input.pid, input.userId),
          server: (asked++, server),
        }),
      ),
      saveToServer: fromPromise<SaveResult, { pid: number; content: ProjectContent; baseVersion: number }>(
        () => new Promise(() => {}),
      ),
    },
  });
  const actor = createActor(machine, { input: { pid: 7, userId: 1, db, localFirst } }).start();
  return { actor, asked: () => asked };
}

async function storeDraft(db: AppDB, patch: Partial<Draft> = {}) {
  await writeDraft(db, {
    draft: {
      pid: 7,
      userId: 1,
      content: content(),
      baseVersion: 3,
      updatedAt: Date.now(),
      dirty: false,
      project,
      ...patch,
    },
    rows: [],
    clearUpTo: null,
  });
}

describe('opening from the local copy', () => {
  it('shows the local copy while the server has not answered, and keeps it when the server has the same version', async () => {
    const db = fresh();
    await storeDraft(db);
    const server = deferred<ProjectDocument>();
    const { actor } = start(db, server.promise);
    // The server never answered, yet the document is open for editing.
    const open = await waitFor(actor, (s) => s.matches({ doc: 'saved' }), { timeout: 2000 });
    expect(open.context.source).toBe('local');
    expect(open.matches({ check: 'waiting' })).toBe(true);
    const shown = open.context.doc.content;
    expect(texts(shown)).toEqual(texts(content()));

    server.resolve(serverDoc(content(), 3));
    const after = await waitFor(actor, (s) => s.matches({ check: 'idle' }) && s.context.source !== 'local');
    expect(after.context.source).toBe('server');
    // Nothing changed on screen: the same object is shown.
    expect(after.context.doc.content).toBe(shown);
    expect(after.matches({ doc: 'saved' })).toBe(true);
    actor.stop();
  });

  it('replaces a copy without edits when the server has a newer version', async () => {
    const db = fresh();
    await storeDraft(db);
    const server = deferred<ProjectDocument>();
    const { actor } = start(db, server.promise);
    await waitFor(actor, (s) => s.context.source === 'local');
    server.resolve(serverDoc(reword(content(), 'q0_0', 'from the server'), 4));
    const after = await waitFor(actor, (s) => s.context.source === 'server');
    expect(texts(after.context.doc.content)).toContain('from the server');
    expect(after.context.baseVersion).toBe(4);
    actor.stop();
  });

  it('merges an edit made before the server answered with the server’s newer version', async () => {
    const db = fresh();
    await storeDraft(db);
    const server = deferred<ProjectDocument>();
    const { actor } = start(db, server.promise);
    await waitFor(actor, (s) => s.context.source === 'local');
    actor.send({
      type: 'content.edit',
      command: { type: 'question.update', questionId: 'q1_1', patch: { text: 'mine, offline' } },
    });
    server.resolve(serverDoc(reword(content(), 'q0_0', 'theirs'), 4));
    // Merged without conflicts, then on to saving (which the test's server never answers).
    const after = await waitFor(actor, (s) => s.matches({ doc: 'saving' }));
    expect(texts(after.context.doc.content)).toEqual(expect.arrayContaining(['mine, offline', 'theirs']));
    expect(after.context.baseVersion).toBe(4);
    actor.stop();
  });

  it('says it is offline when the server cannot be reached, and keeps the copy on screen', async () => {
    const db = fresh();
    await storeDraft(db, { dirty: true, content: reword(content(), 'q0_0', 'unsaved') });
    const server = deferred<ProjectDocument>();
    const { actor } = start(db, server.promise);
    const open = await waitFor(actor, (s) => s.context.source === 'local');
    const shown = open.context.doc.content;
    server.reject(new ApiError('offline', 0, null, null, 'network'));
    const after = await waitFor(actor, (s) => s.context.source === 'offline');
    expect(after.context.doc.content).toBe(shown);
    expect(after.matches({ doc: 'editing' })).toBe(true);
    actor.stop();
  });

  it('waits for the server for a project never opened on this device', async () => {
    const db = fresh();
    const server = deferred<ProjectDocument>();
    const { actor } = start(db, server.promise);
    await new Promise((r) => setTimeout(r, 100));
    expect(actor.getSnapshot().matches({ doc: 'loading' })).toBe(true);
    server.resolve(serverDoc(content(), 3));
    const after = await waitFor(actor, (s) => s.matches({ doc: 'saved' }));
    expect(after.context.source).toBe('server');
    actor.stop();
  });

  it('without localFirst (tests, other callers), opening still waits for the server', async () => {
    const db = fresh();
    await storeDraft(db);
    const server = deferred<ProjectDocument>();
    const { actor } = start(db, server.promise, false);
    await new Promise((r) => setTimeout(r, 100));
    expect(actor.getSnapshot().matches({ doc: 'loading' })).toBe(true);
    server.resolve(serverDoc(content(), 3));
    await waitFor(actor, (s) => s.matches({ doc: 'saved' }));
    actor.stop();
  });

  describe('opened already when the editor starts (the page read the copy while it loaded)', () => {
    /** The machine created with the copy already opened (EditorInput.opened), never asked to load. */
    async function startOpened(db: AppDB, server: Promise<ProjectDocument>) {
      const stored = await readDraft(db, 7, 1);
      let loads = 0;
      const machine = editorMachine.provide({
        actors: {
          loadProject: fromPromise(() => {
            loads++;
            return new Promise<Loaded>(() => {});
          }),
          saveToServer: fromPromise<
            SaveResult,
            { pid: number; content: ProjectContent; baseVersion: number }
          >(() => new Promise(() => {})),
        },
      });
      const actor = createActor(machine, {
        input: { pid: 7, userId: 1, db, localFirst: true, opened: openedLocally(stored, server) },
      });
      return { actor, loads: () => loads };
    }

    it("its first snapshot, before it starts, is the copy opened, checking; the server's answer is then taken as before", async () => {
      const db = fresh();
      await storeDraft(db);
      const server = deferred<ProjectDocument>();
      const { actor, loads } = await startOpened(db, server.promise);
      // What the page's first render reads: no loading state in between.
      const first = actor.getSnapshot();
      expect(first.matches({ doc: 'saved' })).toBe(true);
      expect(first.context.source).toBe('local');
      expect(texts(first.context.doc.content)).toEqual(texts(content()));
      actor.start();
      expect(actor.getSnapshot().matches({ check: 'waiting' })).toBe(true);
      server.resolve(serverDoc(reword(content(), 'q0_0', 'from the server'), 4));
      const after = await waitFor(actor, (s) => s.context.source === 'server');
      expect(texts(after.context.doc.content)).toContain('from the server');
      expect(after.context.baseVersion).toBe(4);
      expect(loads()).toBe(0);
      actor.stop();
    });

    it('a copy with edits opens editing, and the same version on the server keeps it on screen', async () => {
      const db = fresh();
      await storeDraft(db, { content: reword(content(), 'q0_1', 'mine'), dirty: true });
      const server = deferred<ProjectDocument>();
      const { actor } = await startOpened(db, server.promise);
      const first = actor.getSnapshot();
      expect(first.matches({ doc: 'editing' })).toBe(true);
      expect(texts(first.context.doc.content)).toContain('mine');
      actor.start();
      server.resolve(serverDoc(content(), 3));
      const after = await waitFor(actor, (s) => s.context.source === 'draft');
      expect(after.context.doc.content).toBe(first.context.doc.content);
      actor.stop();
    });

    it('a project no longer editable opens read-only', async () => {
      const db = fresh();
      await storeDraft(db, { project: { ...project, editable: false } });
      const { actor } = await startOpened(db, deferred<ProjectDocument>().promise);
      expect(actor.getSnapshot().matches({ doc: 'readOnly' })).toBe(true);
      actor.stop();
    });
  });
});
