// Dexie reads the IndexedDB API when it loads: the fake must come first.
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from '../server/helpers';
import { completeContent, getProject, insertProject, saveProject } from '../server/content-helpers';
import { Role } from '../../src/domain/roles';
import { uploadPictures } from '../../src/api/content';
import { queuePicture, queuedPicture } from '../../src/db/pendingPictures';
import type { ProjectContent } from '../../src/domain/content/model';
import { PictureQueue } from '../../src/views/editor/panels/pictureQueue';
import { PictureUploadError, type uploadWithProgress } from '../../src/views/editor/panels/pictureUpload';
import {
  connectClient,
  drafted,
  freshDb,
  network,
  startEditor,
  until,
  type EditorActor,
} from './editor-helpers';

// The queue of pictures picked offline, driven through the editor machine against the real server
// (SQLite in a temp dir) and Dexie on fake-indexeddb: the upload swaps the references in one edit,
// the rows go only once the draft holds the URLs, and the save then stores the server's URLs. With
// the network down, or a file the server refuses, the pictures stay queued and the status says why.
// A removed queued picture keeps its file while an undo can bring it back, and an undone swap is
// swapped again without uploading twice.

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

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

/** POST /picture through the app's HTTP client (Node has no XMLHttpRequest), failing as the browser's would. */
const upload: typeof uploadWithProgress = async (files, onProgress) => {
  if (!network.up) throw new PictureUploadError('network', 'Network error');
  try {
    const out = await uploadPictures(files.map((f) => new File([f.blob], f.name)));
    onProgress(100);
    return out;
  } catch (err) {
    throw new PictureUploadError('refused', (err as Error).message);
  }
};

const questions = (c: ProjectContent) => c.questionnaires[0].blocks[0].questions;

async function opened() {
  const pid = await insertProject(server, org, { name: 'Queue' });
  await saveProject(server, session, pid, completeContent(), 0);
  const db = freshDb();
  const actor = startEditor(pid, session.user.id, db);
  actors.push(actor);
  await until(actor, 'saved');
  return { pid, db, actor };
}

/** Picks a picture offline: queued in Dexie, its local reference set on the first question and its first answer. */
async function pickOffline(actor: EditorActor, pid: number, db: ReturnType<typeof freshDb>, bytes = PNG) {
  const ref = await queuePicture(db, pid, new Blob([bytes], { type: 'image/png' }), 'cover.png');
  const q = questions(actor.getSnapshot().context.doc.content)[0];
  actor.send({
    type: 'content.edit',
    command: { type: 'question.update', questionId: q.id, patch: { picture: ref } },
  });
  actor.send({
    type: 'content.edit',
    command: { type: 'answer.update', questionId: q.id, answerId: q.answers[0].id, patch: { picture: ref } },
  });
  return ref;
}

describe('pictures queued offline, through the editor machine', () => {
  it('upload, swap every reference in one edit, drop the rows once the draft holds the URLs, then save', async () => {
    const { pid, db, actor } = await opened();
    const ref = await pickOffline(actor, pid, db);
    await drafted(actor);
    const undoBefore = actor.getSnapshot().context.doc.undo.length;
    const queue = new PictureQueue(actor, upload);
    const seen: string[] = [];
    queue.subscribe(() => seen.push(queue.status.phase));

    expect(await queue.upload()).toBe(true);
    expect(seen).toEqual(['uploading', 'uploading', 'idle']);
    const q = questions(actor.getSnapshot().context.doc.content)[0];
    expect(q.picture).toMatch(/^\/api\/v1\/service\/pictures\/[0-9a-f]{64}\.png$/);
    expect(q.answers[0].picture).toBe(q.picture);
    expect(actor.getSnapshot().context.doc.undo.length).toBe(undoBefore + 1);
    expect(await queuedPicture(db, ref)).toBeNull();

    actor.send({ type: 'project.save' });
    await until(actor, 'saved');
    const saved = questions((await getProject(server, session, pid)).body.content)[0];
    expect(saved.picture).toBe(q.picture);
    expect((await fetch(`${server.url}${saved.picture}`)).status).toBe(200);
  });

  it('with the network down the pictures stay queued and the save is not sent', async () => {
    const { pid, db, actor } = await opened();
    const ref = await pickOffline(actor, pid, db);
    network.up = false;
    const queue = new PictureQueue(actor, upload);
    expect(await queue.upload()).toBe(false);
    expect(queue.status).toEqual({ phase: 'waiting', count: 1 });
    expect(questions(actor.getSnapshot().context.doc.content)[0].picture).toBe(ref);
    expect(await queuedPicture(db, ref)).not.toBeNull();
    // The machine itself refuses to send a local reference (the rules name it).
    actor.send({ type: 'project.save' });
    await until(actor, 'failed');
    expect(actor.getSnapshot().context.problems.map((p) => p.rule)).toContain('picturePending');

    network.up = true;
    expect(await queue.upload()).toBe(true);
    actor.send({ type: 'project.save' });
    await until(actor, 'saved');
  });

  it('a file the server refuses stays queued with the server’s message', async () => {
    const { pid, db, actor } = await opened();
    const ref = await pickOffline(actor, pid, db, Buffer.from('not a picture at all'));
    const queue = new PictureQueue(actor, upload);
    expect(await queue.upload()).toBe(false);
    expect(queue.status).toMatchObject({ phase: 'failed', count: 1 });
    expect((queue.status as { message: string }).message).toMatch(/cover\.png/);
    expect(await queuedPicture(db, ref)).not.toBeNull();
  });

  it('a reference whose file left this browser is named as lost, and nothing is uploaded', async () => {
    const { actor } = await opened();
    const q = questions(actor.getSnapshot().context.doc.content)[0];
    actor.send({
      type: 'content.edit',
      command: { type: 'question.update', questionId: q.id, patch: { picture: 'local-picture:gone' } },
    });
    let calls = 0;
    const queue = new PictureQueue(actor, async (files, p) => (calls++, upload(files, p)));
    expect(await queue.upload()).toBe(false);
    expect(queue.status).toEqual({ phase: 'lost', count: 1 });
    expect(calls).toBe(0);
  });
  it('Undo brings back a removed queued picture whole; the save uploads only what the content holds', async () => {
    const { pid, db, actor } = await opened();
    const q = questions(actor.getSnapshot().context.doc.content)[0];
    const edit = (patch: { picture: string | null }, answerId?: string) =>
      actor.send({
        type: 'content.edit',
        command: answerId
          ? { type: 'answer.update', questionId: q.id, answerId, patch }
          : { type: 'question.update', questionId: q.id, patch },
      });
    const file = () => new Blob([PNG], { type: 'image/png' });
    const cover = await queuePicture(db, pid, file(), 'cover.png');
    const answer = await queuePicture(db, pid, file(), 'answer.png');
    edit({ picture: cover });
    edit({ picture: answer }, q.answers[0].id);

    // Removed, then undone: the file is still there, so nothing is lost.
    edit({ picture: null });
    expect(await queuedPicture(db, cover)).not.toBeNull();
    actor.send({ type: 'history.undo' });
    expect(questions(actor.getSnapshot().context.doc.content)[0].picture).toBe(cover);
    // The answer's picture is removed for good (as far as this test goes).
    edit({ picture: null }, q.answers[0].id);

    const sent: string[] = [];
    const queue = new PictureQueue(
      actor,
      async (files, p) => (sent.push(...files.map((f) => f.name)), upload(files, p)),
    );
    expect(await queue.upload()).toBe(true);
    expect(sent).toEqual(['cover.png']);
    const url = questions(actor.getSnapshot().context.doc.content)[0].picture;
    expect(url).toMatch(/^\/api\/v1\/service\/pictures\/[0-9a-f]{64}\.png$/);
    expect(await queuedPicture(db, cover)).toBeNull();
    // The removed answer's file stays while an undo can still bring it back.
    expect(await queuedPicture(db, answer)).not.toBeNull();

    // Undo the swap and the removal: the answer's file goes up, the cover's URL comes from memory.
    actor.send({ type: 'history.undo' });
    actor.send({ type: 'history.undo' });
    const back = questions(actor.getSnapshot().context.doc.content)[0];
    expect([back.picture, back.answers[0].picture]).toEqual([cover, answer]);
    expect(await queue.upload()).toBe(true);
    expect(sent).toEqual(['cover.png', 'answer.png']);
    const swapped = questions(actor.getSnapshot().context.doc.content)[0];
    expect(swapped.picture).toBe(url);
    expect(swapped.answers[0].picture).toMatch(/^\/api\/v1\/service\/pictures\//);
    actor.send({ type: 'project.save' });
    await until(actor, 'saved');
    const saved = questions((await getProject(server, session, pid)).body.content)[0];
    expect([saved.picture, saved.answers[0].picture]).toEqual([swapped.picture, swapped.answers[0].picture]);
    expect(await queuedPicture(db, answer)).toBeNull();
  });

  it('a file nothing refers to any more, not even the undo history, leaves the queue at the save', async () => {
    const { pid, db, actor } = await opened();
    const orphan = await queuePicture(db, pid, new Blob([PNG], { type: 'image/png' }), 'orphan.png');
    const queue = new PictureQueue(actor, upload);
    expect(await queue.upload()).toBe(true);
    expect(await queuedPicture(db, orphan)).toBeNull();
  });
});
