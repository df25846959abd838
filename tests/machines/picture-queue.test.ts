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
});
