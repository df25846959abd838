// Dexie reads the IndexedDB API when it loads: the fake must come first.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { startServer, type Session, type TestServer } from '../server/helpers';
import { completeContent, getProject, insertProject, saveProject } from '../server/content-helpers';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import { pictureUrl } from '../../src/domain/content/limits';
import type { ProjectContent } from '../../src/domain/content/model';
import {
  connectClient,
  docState,
  firstBlockId,
  freshDb,
  network,
  startEditor,
  until,
  type EditorActor,
} from './editor-helpers';

// Model-based test of the editor machine (xstate/graph createTestModel): an abstract model of what
// a user sees, a map from its states to assertions on the real machine (with the real server and
// Dexie), and from its events to drivers. Every transition of the model is walked by some path.

const model = setup({
  types: {
    events: {} as
      | { type: 'LOAD' }
      | { type: 'LOAD_READONLY' }
      | { type: 'EDIT' }
      | { type: 'SAVE' }
      | { type: 'SAVE_OFFLINE' }
      | { type: 'ONLINE' }
      | { type: 'SAVE_STALE' }
      | { type: 'KEEP_MINE' }
      | { type: 'TAKE_THEIRS' }
      | { type: 'SAVE_REFUSED' }
      | { type: 'FIX_AND_RETRY' },
  },
}).createMachine({
  id: 'editorModel',
  initial: 'closed',
  states: {
    closed: { on: { LOAD: 'saved', LOAD_READONLY: 'readOnly' } },
    readOnly: {},
    saved: { on: { EDIT: 'editing' } },
    editing: {
      on: { SAVE: 'stored', SAVE_OFFLINE: 'offline', SAVE_STALE: 'conflict', SAVE_REFUSED: 'failed' },
    },
    offline: { on: { ONLINE: 'storedAfterOffline' } },
    conflict: { on: { KEEP_MINE: 'storedMine', TAKE_THEIRS: 'tookTheirs' } },
    failed: { on: { FIX_AND_RETRY: 'storedAfterFix' } },
    stored: {},
    storedAfterOffline: {},
    storedMine: {},
    tookTheirs: {},
    storedAfterFix: {},
  },
});

let server: TestServer;
let session: Session;
let org: number;

beforeAll(async () => {
  server = await startServer();
  org = await server.createOrganization();
  session = await server.as(Role.Researcher, { organizationId: org });
  connectClient(server, session);
});
afterAll(async () => server?.close());

interface Sut {
  pid: number;
  actor: EditorActor | null;
}
const MINE = 'Mine, added in the editor';
const texts = (c: ProjectContent) =>
  c.questionnaires
    .flatMap((q) => q.blocks)
    .flatMap((b) => b.questions)
    .map((q) => q.text);
const server$ = async (sut: Sut) =>
  (await getProject(server, session, sut.pid)).body as { version: number; content: ProjectContent };

function params(sut: Sut) {
  const actor = () => sut.actor!;
  const ctx = () => actor().getSnapshot().context;
  const storedWithMine = async () => {
    expect(docState(actor())).toBe('saved');
    const s = await server$(sut);
    expect(s.content).toEqual(ctx().doc.content);
    expect(ctx().baseVersion).toBe(s.version);
    expect(texts(s.content)).toContain(MINE);
  };
  return {
    states: {
      closed: () => expect(sut.actor).toBeNull(),
      readOnly: () => {
        expect(docState(actor())).toBe('readOnly');
        expect(ctx().project?.editable).toBe(false);
      },
      saved: async () => {
        expect(docState(actor())).toBe('saved');
        const s = await server$(sut);
        expect(ctx().doc.content).toEqual(s.content);
        expect(ctx().baseVersion).toBe(s.version);
      },
      editing: async () => {
        expect(docState(actor())).toBe('editing');
        expect(texts(ctx().doc.content)).toContain(MINE);
        expect(texts((await server$(sut)).content)).not.toContain(MINE);
      },
      offline: async () => {
        expect(docState(actor())).toBe('offline');
        expect((await server$(sut)).version).toBe(1);
      },
      conflict: async () => {
        expect(docState(actor())).toBe('conflict');
        expect(ctx().conflict?.content).toEqual((await server$(sut)).content);
        expect(texts(ctx().doc.content)).toContain(MINE);
      },
      failed: async () => {
        expect(docState(actor())).toBe('failed');
        expect(ctx().problems.map((p) => p.code)).toEqual([40516]);
        expect((await server$(sut)).version).toBe(1);
      },
      stored: storedWithMine,
      storedAfterOffline: storedWithMine,
      storedMine: async () => {
        await storedWithMine();
        expect(texts((await server$(sut)).content)).not.toContain('Theirs');
      },
      storedAfterFix: storedWithMine,
      tookTheirs: async () => {
        expect(docState(actor())).toBe('saved');
        const s = await server$(sut);
        expect(ctx().doc.content).toEqual(s.content);
        expect(texts(s.content)).toContain('Theirs');
        expect(texts(s.content)).not.toContain(MINE);
      },
    },
    events: {
      LOAD: async () => {
        sut.actor = startEditor(sut.pid, session.user.id, freshDb());
        await until(actor(), 'saved');
      },
      LOAD_READONLY: async () => {
        await server.app.db
          .updateTable('projects')
          .set({ status: ProjectStatus.OnModeration })
          .where('id', '=', sut.pid)
          .execute();
        sut.actor = startEditor(sut.pid, session.user.id, freshDb());
        await until(actor(), 'readOnly');
      },
      EDIT: () => {
        actor().send({
          type: 'content.edit',
          command: {
            type: 'question.add',
            blockId: firstBlockId(actor()),
            question: { text: MINE, category: 'open' },
          },
        });
      },
      SAVE: async () => {
        actor().send({ type: 'project.save' });
        await until(actor(), 'saved');
      },
      SAVE_OFFLINE: async () => {
        network.up = false;
        actor().send({ type: 'project.save' });
        await until(actor(), 'offline');
      },
      ONLINE: async () => {
        network.up = true;
        actor().send({ type: 'network.online' });
        await until(actor(), 'saved');
      },
      SAVE_STALE: async () => {
        const theirs = (await getProject(server, session, sut.pid)).body.content;
        theirs.questionnaires[0].blocks[0].questions[0].text = 'Theirs';
        expect((await saveProject(server, session, sut.pid, theirs, 1)).status).toBe(200);
        // The same question reworded here too: a true conflict (disjoint edits merge without one).
        const first = ctx().doc.content.questionnaires[0].blocks[0].questions[0];
        actor().send({
          type: 'content.edit',
          command: { type: 'question.update', questionId: first.id, patch: { text: 'Mine too' } },
        });
        actor().send({ type: 'project.save' });
        await until(actor(), 'conflict');
      },
      KEEP_MINE: async () => {
        actor().send({ type: 'conflict.keepMine' });
        await until(actor(), 'saved');
      },
      TAKE_THEIRS: async () => {
        actor().send({ type: 'conflict.takeTheirs' });
        await until(actor(), 'saved');
      },
      SAVE_REFUSED: async () => {
        const q = ctx().doc.content.questionnaires[0].blocks[0].questions[0];
        actor().send({
          type: 'content.edit',
          command: {
            type: 'question.update',
            questionId: q.id,
            patch: { picture: pictureUrl('e'.repeat(64), 'png') },
          },
        });
        actor().send({ type: 'project.save' });
        await until(actor(), 'failed');
      },
      FIX_AND_RETRY: async () => {
        actor().send({ type: 'history.undo' });
        actor().send({ type: 'save.retry' });
        await until(actor(), 'saved');
      },
    },
  };
}

describe('editor machine, model-based', () => {
  const paths = createTestModel(model).getShortestPaths();

  // Each state of the model has exactly one way in, so reaching every state walks every transition.
  it('has a path to every state of the model', () => {
    const seen = new Set(paths.flatMap((p) => p.steps.map((s) => `${JSON.stringify(s.state.value)}`)));
    expect(seen.size).toBe(Object.keys(model.config.states!).length);
  });

  for (const path of paths) {
    it(
      path.description,
      async () => {
        const sut: Sut = { pid: await insertProject(server, org), actor: null };
        await saveProject(server, session, sut.pid, completeContent(), 0);
        try {
          await path.test(params(sut));
        } finally {
          network.up = true;
          sut.actor?.stop();
        }
      },
      20_000,
    );
  }
});
