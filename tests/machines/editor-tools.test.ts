// Dexie reads the IndexedDB API when it loads: the fake must come first.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { startServer, type Session, type TestServer } from '../server/helpers';
import { completeContent, insertProject, saveProject } from '../server/content-helpers';
import { i18nObject } from '../../src/i18n/i18n-util';
import { Role } from '../../src/domain/roles';
import { ProjectStatus, ProjectType } from '../../src/domain/projects';
import type { SaveState } from '../../src/machines/editor/context';
import type { EditorSelection } from '../../src/views/editor/selection';
import {
  disabledReason,
  STRUCTURE,
  TOOLBAR,
  type ToolFacts,
  type ToolId,
} from '../../src/views/editor/tools/availability';
import {
  connectClient,
  docState,
  firstBlockId,
  freshDb,
  startEditor,
  until,
  type EditorActor,
} from './editor-helpers';

// Which editor commands are enabled in which editor state, and why not (model-based, xstate/graph):
// an abstract model of what the researcher did, the real editor machine (real server, Dexie on
// fake-indexeddb) driven along every path, and in each state the whole table of commands compared
// with what the toolbar would say.

const LL = i18nObject('en');

const model = setup({
  types: {
    events: {} as
      | { type: 'LOAD' }
      | { type: 'LOAD_NEW' }
      | { type: 'LOAD_READONLY' }
      | { type: 'SELECT_FIRST' }
      | { type: 'EDIT' }
      | { type: 'UNDO' }
      | { type: 'REDO' }
      | { type: 'SAVE' },
  },
}).createMachine({
  id: 'toolsModel',
  initial: 'closed',
  states: {
    closed: { on: { LOAD: 'saved', LOAD_NEW: 'newProject', LOAD_READONLY: 'readOnly' } },
    newProject: {},
    readOnly: { on: { SELECT_FIRST: 'readOnlySelected' } },
    readOnlySelected: {},
    saved: { on: { EDIT: 'edited', SELECT_FIRST: 'selected' } },
    selected: {},
    edited: { on: { UNDO: 'undone', SAVE: 'stored' } },
    undone: { on: { REDO: 'redone' } },
    redone: {},
    stored: {},
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
  selection: EditorSelection;
}

function facts(sut: Sut): ToolFacts {
  const s = sut.actor!.getSnapshot();
  const ctx = s.context;
  return {
    state: docState(sut.actor!) as SaveState,
    project: ctx.project,
    content: ctx.doc.content,
    canUndo: ctx.doc.undo.length > 0,
    canRedo: ctx.doc.redo.length > 0,
    dirty: ctx.savedContent !== null && ctx.doc.content !== ctx.savedContent,
    selection: sut.selection,
    roleId: Role.Researcher,
  };
}

type Table = Partial<Record<ToolId, string | null>>;

/** Every command's reason in this state; commands not listed must be enabled. */
function expectTable(sut: Sut, expected: Table) {
  const f = facts(sut);
  const actual: Table = {};
  for (const id of [...TOOLBAR, ...STRUCTURE, 'commandMenu' as const]) actual[id] = disabledReason(LL, id, f);
  const want: Table = {};
  for (const id of Object.keys(actual) as ToolId[]) want[id] = expected[id] ?? null;
  expect(actual).toEqual(want);
}

const ALWAYS: Table = {
  portraits: 'Only target projects have portraits',
  projectSettings: 'Your role may not change project settings',
};
const NO_SELECTION: Table = {
  rename: 'Select an item first',
  duplicate: 'Select an item first',
  delete: 'Select an item first',
  moveUp: 'Select an item first',
  moveDown: 'Select an item first',
};
const CLEAN: Table = {
  ...ALWAYS,
  undo: 'Nothing to undo',
  redo: 'Nothing to redo',
  save: 'All changes are saved',
};
const LOCKED = 'Not editable: On moderation';
const READ_ONLY: Table = {
  ...ALWAYS,
  portraits: LOCKED,
  undo: LOCKED,
  redo: LOCKED,
  import: LOCKED,
  save: LOCKED,
  sendModeration: LOCKED,
  addQuestionnaire: LOCKED,
  addBlock: LOCKED,
  addQuestion: LOCKED,
  rename: LOCKED,
  duplicate: LOCKED,
  delete: LOCKED,
  moveUp: LOCKED,
  moveDown: LOCKED,
};

function params(sut: Sut) {
  const actor = () => sut.actor!;
  const open = async (state: string) => {
    sut.actor = startEditor(sut.pid, session.user.id, freshDb());
    await until(actor(), state);
  };
  return {
    states: {
      closed: () => expect(sut.actor).toBeNull(),
      newProject: () => {
        // One empty questionnaire: "Add block" is there, "Add question" says what is missing.
        expect(facts(sut).content.questionnaires.map((q) => q.blocks.length)).toEqual([0]);
        expectTable(sut, {
          ...CLEAN,
          ...NO_SELECTION,
          addQuestion: 'Add a block first',
          sendModeration: null,
        });
      },
      readOnly: () => expectTable(sut, { ...READ_ONLY }),
      readOnlySelected: () => expectTable(sut, { ...READ_ONLY }),
      saved: () => expectTable(sut, { ...CLEAN, ...NO_SELECTION }),
      selected: () => expectTable(sut, { ...CLEAN, moveUp: 'The item is already the first' }),
      edited: () =>
        expectTable(sut, {
          ...ALWAYS,
          ...NO_SELECTION,
          redo: 'Nothing to redo',
          sendModeration: 'Save the project first',
          surveyLink: 'Save the project first',
        }),
      // Undone back to the saved version: nothing to save, and it may be sent as it is.
      undone: () =>
        expectTable(sut, {
          ...ALWAYS,
          ...NO_SELECTION,
          undo: 'Nothing to undo',
          save: 'All changes are saved',
        }),
      redone: () =>
        expectTable(sut, {
          ...ALWAYS,
          ...NO_SELECTION,
          redo: 'Nothing to redo',
          sendModeration: 'Save the project first',
          surveyLink: 'Save the project first',
        }),
      stored: () =>
        expectTable(sut, {
          ...ALWAYS,
          ...NO_SELECTION,
          redo: 'Nothing to redo',
          save: 'All changes are saved',
        }),
    },
    events: {
      LOAD: async () => {
        await saveProject(server, session, sut.pid, completeContent(), 0);
        await open('saved');
      },
      LOAD_NEW: () => open('saved'),
      LOAD_READONLY: async () => {
        await saveProject(server, session, sut.pid, completeContent(), 0);
        await server.app.db
          .updateTable('projects')
          .set({ status: ProjectStatus.OnModeration })
          .where('id', '=', sut.pid)
          .execute();
        await open('readOnly');
      },
      SELECT_FIRST: () => {
        const q = actor().getSnapshot().context.doc.content.questionnaires[0].blocks[0].questions[0];
        sut.selection = { kind: 'question', id: q.id };
      },
      EDIT: () =>
        actor().send({
          type: 'content.edit',
          command: {
            type: 'question.add',
            blockId: firstBlockId(actor()),
            question: { text: 'More', category: 'open' },
          },
        }),
      UNDO: () => actor().send({ type: 'history.undo' }),
      REDO: () => actor().send({ type: 'history.redo' }),
      SAVE: async () => {
        actor().send({ type: 'project.save' });
        await until(actor(), 'saved');
      },
    },
  };
}

describe('editor commands enabled per editor state, model-based', () => {
  const paths = createTestModel(model).getShortestPaths();

  it('has a path to every state of the model', () => {
    const seen = new Set(paths.flatMap((p) => p.steps.map((s) => JSON.stringify(s.state.value))));
    expect(seen.size).toBe(Object.keys(model.config.states!).length);
  });

  for (const path of paths) {
    it(
      path.description,
      async () => {
        const sut: Sut = {
          pid: await insertProject(server, org, { type: ProjectType.Default }),
          actor: null,
          selection: null,
        };
        try {
          await path.test(params(sut));
        } finally {
          sut.actor?.stop();
        }
      },
      20_000,
    );
  }
});
