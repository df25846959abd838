// Dexie reads the IndexedDB API when it loads: the fake must come first.
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from '../server/helpers';
import { completeContent, getProject, insertProject, saveProject } from '../server/content-helpers';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import { pictureUrl } from '../../src/domain/content/limits';
import { readChangeLog, readDraft } from '../../src/db/drafts';
import {
  connectClient,
  docState,
  drafted,
  firstBlockId,
  freshDb,
  network,
  startEditor,
  until,
  type EditorActor,
} from './editor-helpers';

// The editor machine end to end without a browser: the real server, Dexie on fake-indexeddb.

let server: TestServer;
let session: Session;
let org: number;
const actors: EditorActor[] = [];

beforeAll(async () => {
  server = await startServer();
  org = await server.createOrganization();
  session = await server.as(Role.Researcher, { organizationId: org });
  connectClient(server, session);
});
afterEach(() => {
  network.up = true;
  while (actors.length) actors.pop()!.stop();
});
afterAll(async () => server?.close());

async function project(content = completeContent()) {
  const pid = await insertProject(server, org, { name: 'Machine' });
  await saveProject(server, session, pid, content, 0);
  return pid;
}
function open(pid: number, db = freshDb()) {
  const actor = startEditor(pid, session.user.id, db);
  actors.push(actor);
  return actor;
}
const addQuestion = (actor: EditorActor, text: string) =>
  actor.send({
    type: 'content.edit',
    command: { type: 'question.add', blockId: firstBlockId(actor), question: { text, category: 'open' } },
  });
const rewordFirst = (actor: EditorActor, text: string) =>
  actor.send({
    type: 'content.edit',
    command: {
      type: 'question.update',
      questionId: actor.getSnapshot().context.doc.content.questionnaires[0].blocks[0].questions[0].id,
      patch: { text },
    },
  });
const texts = (c: { questionnaires: { blocks: { questions: { text: string }[] }[] }[] }) =>
  c.questionnaires[0].blocks[0].questions.map((q) => q.text);

describe('editor machine', () => {
  it('loads the server copy, edits, writes the draft with its change-log in Dexie, saves, and clears the log', async () => {
    const pid = await project();
    const db = freshDb();
    const actor = open(pid, db);
    await until(actor, 'saved');
    expect(actor.getSnapshot().context.source).toBe('server');
    expect(actor.getSnapshot().context.baseVersion).toBe(1);

    addQuestion(actor, 'New one');
    expect(docState(actor)).toBe('editing');
    await drafted(actor);
    const stored = await readDraft(db, pid, session.user.id);
    expect(stored.draft).toMatchObject({ pid, baseVersion: 1, dirty: true });
    expect(texts(stored.draft!.content)).toEqual(['How old are you?', 'Anything else?', 'New one']);
    expect(stored.rows.map((r) => [r.code, r.payload.label, r.payload.kind])).toEqual([
      ['005', 'New one', 'edit'],
    ]);

    actor.send({ type: 'project.save' });
    await until(actor, 'saved');
    await drafted(actor);
    expect(actor.getSnapshot().context.baseVersion).toBe(2);
    expect(texts((await getProject(server, session, pid)).body.content)).toEqual([
      'How old are you?',
      'Anything else?',
      'New one',
    ]);
    expect(await readChangeLog(db, pid)).toEqual([]);
    expect((await readDraft(db, pid, session.user.id)).draft).toMatchObject({ baseVersion: 2, dirty: false });
  });

  it('undoes and redoes through the machine, logging each step', async () => {
    const pid = await project();
    const actor = open(pid);
    await until(actor, 'saved');
    addQuestion(actor, 'Q');
    actor.send({ type: 'history.undo' });
    expect(texts(actor.getSnapshot().context.doc.content)).toEqual(['How old are you?', 'Anything else?']);
    actor.send({ type: 'history.redo' });
    expect(texts(actor.getSnapshot().context.doc.content)).toEqual([
      'How old are you?',
      'Anything else?',
      'Q',
    ]);
    expect(actor.getSnapshot().context.changes.map((r) => `${r.code}:${r.payload.kind}`)).toEqual([
      '005:edit',
      '005:undo',
      '005:redo',
    ]);
  });

  it('shows "saved" again when undo or redo comes back to the saved version, and the draft is clean', async () => {
    const pid = await project();
    const db = freshDb();
    const actor = open(pid, db);
    await until(actor, 'saved');
    addQuestion(actor, 'A');
    rewordFirst(actor, 'Reworded');
    expect(docState(actor)).toBe('editing');
    actor.send({ type: 'history.undo' });
    expect(docState(actor)).toBe('editing');
    actor.send({ type: 'history.undo' });
    expect(docState(actor)).toBe('saved');
    expect(actor.getSnapshot().context.doc.content).toBe(actor.getSnapshot().context.savedContent);
    await drafted(actor);
    expect((await readDraft(db, pid, session.user.id)).draft).toMatchObject({ dirty: false });

    // Saved in the middle of the history: undo leaves it, redo comes back to it.
    actor.send({ type: 'history.redo' });
    expect(docState(actor)).toBe('editing');
    actor.send({ type: 'project.save' });
    await until(actor, 'saved');
    actor.send({ type: 'history.undo' });
    expect(docState(actor)).toBe('editing');
    actor.send({ type: 'history.redo' });
    expect(docState(actor)).toBe('saved');
    expect(texts(actor.getSnapshot().context.doc.content)).toEqual([
      'How old are you?',
      'Anything else?',
      'A',
    ]);

    // A new edit after undoing past the saved version: the saved version is no longer in the history.
    actor.send({ type: 'history.undo' });
    addQuestion(actor, 'B');
    actor.send({ type: 'history.undo' });
    expect(docState(actor)).toBe('editing');
  });

  it('restores an unsaved draft after the page is gone (a new actor on the same database) and says so', async () => {
    const pid = await project();
    const db = freshDb();
    const first = open(pid, db);
    await until(first, 'saved');
    addQuestion(first, 'Kept locally');
    await drafted(first);
    first.stop();

    const second = open(pid, db);
    await until(second, 'editing');
    const ctx = second.getSnapshot().context;
    expect(ctx.source).toBe('draft');
    expect(texts(ctx.doc.content)).toContain('Kept locally');
    expect(ctx.changes.map((r) => r.code)).toEqual(['005']);
    // The next edit continues the change-log after the stored rows.
    addQuestion(second, 'More');
    expect(second.getSnapshot().context.changes.map((r) => r.seq)).toEqual([1, 2]);
  });

  it('merges a draft based on an older version with the server copy at load, and saves the merge', async () => {
    const pid = await project();
    const db = freshDb();
    const first = open(pid, db);
    await until(first, 'saved');
    addQuestion(first, 'Mine');
    await drafted(first);
    first.stop();
    // Someone else saves afterwards, changing another item.
    const theirs = (await getProject(server, session, pid)).body.content;
    theirs.questionnaires[0].blocks[0].questions[0].text = 'Theirs';
    expect((await saveProject(server, session, pid, theirs, 1)).status).toBe(200);

    const second = open(pid, db);
    await until(second, 'saved');
    const ctx = second.getSnapshot().context;
    expect(texts(ctx.doc.content)).toEqual(['Theirs', 'Anything else?', 'Mine']);
    expect(ctx.merge.notice).toMatchObject({ version: 2, incoming: [{ code: '008', label: 'Theirs' }] });
    const back = await getProject(server, session, pid);
    expect(back.body.version).toBe(3);
    expect(texts(back.body.content)).toEqual(['Theirs', 'Anything else?', 'Mine']);
    // The merge is one undoable step.
    second.send({ type: 'history.undo' });
    expect(texts(second.getSnapshot().context.doc.content)).toEqual([
      'How old are you?',
      'Anything else?',
      'Mine',
    ]);
  });

  it('waits offline when the network is down, says so, and lands the save when it returns', async () => {
    const pid = await project();
    const actor = open(pid);
    await until(actor, 'saved');
    addQuestion(actor, 'Offline edit');
    network.up = false;
    actor.send({ type: 'network.offline' });
    actor.send({ type: 'project.save' });
    await until(actor, 'offline');
    expect(actor.getSnapshot().context.online).toBe(false);
    expect((await getProject(server, session, pid)).body.version).toBe(1);
    // Still editable while waiting.
    addQuestion(actor, 'Second offline edit');
    network.up = true;
    actor.send({ type: 'network.online' });
    await until(actor, 'saved');
    const back = await getProject(server, session, pid);
    expect(back.body.version).toBe(2);
    expect(texts(back.body.content)).toEqual([
      'How old are you?',
      'Anything else?',
      'Offline edit',
      'Second offline edit',
    ]);
  });

  it('retries by itself with backoff while offline, without an online event', async () => {
    const pid = await project();
    const actor = open(pid);
    await until(actor, 'saved');
    addQuestion(actor, 'Retry me');
    network.up = false;
    actor.send({ type: 'project.save' });
    await until(actor, 'offline');
    network.up = true;
    await until(actor, 'saved', 5000);
    expect((await getProject(server, session, pid)).body.version).toBe(2);
  });

  /** I add a question and reword the first while someone else rewords it as 'Theirs'; my save meets a 412. */
  async function reachConflict() {
    const pid = await project();
    const actor = open(pid);
    await until(actor, 'saved');
    addQuestion(actor, 'Mine');
    rewordFirst(actor, 'Mine first');
    const theirs = (await getProject(server, session, pid)).body.content;
    theirs.questionnaires[0].blocks[0].questions[0].text = 'Theirs';
    await saveProject(server, session, pid, theirs, 1);
    actor.send({ type: 'project.save' });
    await until(actor, 'conflict');
    return { pid, actor };
  }

  it('keeps both sides on a conflict: keep mine saves over theirs, never silently', async () => {
    const { pid, actor } = await reachConflict();
    const ctx = actor.getSnapshot().context;
    expect(ctx.conflict?.version).toBe(2);
    expect(texts(ctx.conflict!.content)[0]).toBe('Theirs');
    expect(texts(ctx.doc.content)).toContain('Mine');
    // Nothing of mine reached the server yet.
    expect(texts((await getProject(server, session, pid)).body.content)[0]).toBe('Theirs');
    actor.send({ type: 'conflict.keepMine' });
    await until(actor, 'saved');
    const back = await getProject(server, session, pid);
    expect(back.body.version).toBe(3);
    expect(texts(back.body.content)).toContain('Mine');
  });

  it('take theirs replaces my content with the server copy and logs 010', async () => {
    const { actor } = await reachConflict();
    actor.send({ type: 'conflict.takeTheirs' });
    await until(actor, 'saved');
    const ctx = actor.getSnapshot().context;
    expect(texts(ctx.doc.content)).toEqual(['Theirs', 'Anything else?']);
    expect(ctx.baseVersion).toBe(2);
    expect(ctx.changes.map((r) => r.code)).toEqual(['010']);
    expect(ctx.doc.undo).toHaveLength(0);
  });

  it('merges disjoint edits on a 412 and saves without asking, saying what came in', async () => {
    const pid = await project();
    const actor = open(pid);
    await until(actor, 'saved');
    addQuestion(actor, 'Mine');
    const theirs = (await getProject(server, session, pid)).body.content;
    theirs.questionnaires[0].blocks[0].questions[1].text = 'Their wording';
    await saveProject(server, session, pid, theirs, 1);
    actor.send({ type: 'project.save' });
    await until(actor, 'saved');
    const ctx = actor.getSnapshot().context;
    expect(ctx.baseVersion).toBe(3);
    expect(ctx.merge.notice?.incoming).toEqual([{ code: '008', label: 'Their wording' }]);
    expect(texts((await getProject(server, session, pid)).body.content)).toEqual([
      'How old are you?',
      'Their wording',
      'Mine',
    ]);
    actor.send({ type: 'merge.dismiss' });
    expect(actor.getSnapshot().context.merge.notice).toBeNull();
  });

  it('on a true conflict shows only the items at stake and saves the choice per item with the rest merged', async () => {
    const { pid, actor } = await reachConflict();
    const pending = actor.getSnapshot().context.merge.pending!;
    expect(pending.result.conflicts.map((c) => [c.kind, c.fields, c.mine?.text, c.theirs?.text])).toEqual([
      ['question', ['text'], 'Mine first', 'Theirs'],
    ]);
    // Mine everywhere, then this item theirs: the last choice counts.
    actor.send({ type: 'conflict.chooseAll', side: 'mine' });
    actor.send({ type: 'conflict.choose', key: pending.result.conflicts[0].key, side: 'theirs' });
    actor.send({ type: 'conflict.resolve' });
    await until(actor, 'saved');
    const back = await getProject(server, session, pid);
    expect(back.body.version).toBe(3);
    expect(texts(back.body.content)).toEqual(['Theirs', 'Anything else?', 'Mine']);
    expect(actor.getSnapshot().context.merge.pending).toBeNull();
  });

  it('refuses to send content the rules refuse, and shows the problems', async () => {
    const pid = await project();
    const actor = open(pid);
    await until(actor, 'saved');
    const q = actor.getSnapshot().context.doc.content.questionnaires[0].blocks[0].questions[1];
    actor.send({
      type: 'content.edit',
      command: {
        type: 'redirect.set',
        questionId: q.id,
        redirect: { kind: 'questionInBlock', target: q.id },
      },
    });
    const calls = network.calls;
    actor.send({ type: 'project.save' });
    expect(docState(actor)).toBe('failed');
    expect(actor.getSnapshot().context.problems.map((p) => p.rule)).toEqual(['redirectCycle']);
    expect(network.calls).toBe(calls);
  });

  it('fails with the server problems when the server refuses; undoing the change is back to saved', async () => {
    const pid = await project();
    const actor = open(pid);
    await until(actor, 'saved');
    const q = actor.getSnapshot().context.doc.content.questionnaires[0].blocks[0].questions[1];
    // Well-formed, but never uploaded: only the server can know.
    actor.send({
      type: 'content.edit',
      command: {
        type: 'question.update',
        questionId: q.id,
        patch: { picture: pictureUrl('d'.repeat(64), 'png') },
      },
    });
    actor.send({ type: 'project.save' });
    await until(actor, 'failed');
    expect(actor.getSnapshot().context.problems.map((p) => p.code)).toEqual([40516]);
    expect(actor.getSnapshot().context.error).toBe('Attachment of images not allowed (questions)');
    // Undone back to the saved version: nothing left to save, the server's complaint gone with it.
    actor.send({ type: 'history.undo' });
    expect(docState(actor)).toBe('saved');
    expect(actor.getSnapshot().context.problems).toEqual([]);
  });

  it('is read-only when the project is not editable, and ignores edits', async () => {
    const pid = await project();
    await server.app.db
      .updateTable('projects')
      .set({ status: ProjectStatus.OnModeration })
      .where('id', '=', pid)
      .execute();
    const actor = open(pid);
    await until(actor, 'readOnly');
    const before = actor.getSnapshot().context.doc.content;
    addQuestion(actor, 'nope');
    expect(actor.getSnapshot().context.doc.content).toBe(before);
  });

  it('becomes read-only when a save meets a project that was sent meanwhile (409)', async () => {
    const pid = await project();
    const actor = open(pid);
    await until(actor, 'saved');
    addQuestion(actor, 'late');
    await server.app.db
      .updateTable('projects')
      .set({ status: ProjectStatus.OnModeration })
      .where('id', '=', pid)
      .execute();
    actor.send({ type: 'project.save' });
    await until(actor, 'readOnly');
    expect(actor.getSnapshot().context.project?.editable).toBe(false);
  });

  it('opens the local copy when the server cannot be reached, and says so', async () => {
    const pid = await project();
    const db = freshDb();
    const first = open(pid, db);
    await until(first, 'saved');
    await drafted(first);
    first.stop();
    network.up = false;
    const second = open(pid, db);
    await until(second, 'saved');
    expect(second.getSnapshot().context.source).toBe('offline');
    expect(texts(second.getSnapshot().context.doc.content)).toEqual(['How old are you?', 'Anything else?']);
  });

  it('fails to load, with a retry, when offline and nothing is kept locally', async () => {
    const pid = await project();
    network.up = false;
    const actor = open(pid);
    await until(actor, 'loadFailed');
    network.up = true;
    actor.send({ type: 'load.retry' });
    await until(actor, 'saved');
  });

  it('records changes made through other calls (priority, settings) in the log', async () => {
    const pid = await project();
    const actor = open(pid);
    await until(actor, 'saved');
    actor.send({ type: 'log.record', code: '001', label: '5' });
    expect(actor.getSnapshot().context.changes.map((r) => [r.code, r.payload.kind])).toEqual([
      ['001', 'external'],
    ]);
  });
});
