import 'fake-indexeddb/auto';
import { createActor, waitFor, type Actor } from 'xstate';
import { configureClient } from '../../src/api/client';
import { writeAuth } from '../../src/api/storage';
import { loadAllLocales } from '../../src/i18n/i18n-util.sync';
import { i18nObject } from '../../src/i18n/i18n-util';
import { AppDB } from '../../src/db/AppDB';
import { editorMachine } from '../../src/machines/editor/machine';
import type { Session, TestServer } from '../server/helpers';

// Drives the editor machine against the real server (SQLite in a temp dir) and Dexie on
// fake-indexeddb. The network can be cut: the HTTP client's fetch then fails as a browser's does
// offline (a TypeError), which is how the machine learns that it is offline.

class MemoryStorage {
  private map = new Map<string, string>();
  getItem(k: string) {
    return this.map.has(k) ? this.map.get(k)! : null;
  }
  setItem(k: string, v: string) {
    this.map.set(k, String(v));
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
  clear() {
    this.map.clear();
  }
}

export const network = { up: true, calls: 0 };

export function connectClient(server: TestServer, session: Session) {
  (globalThis as { localStorage?: unknown }).localStorage ??= new MemoryStorage();
  writeAuth({
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
    userId: session.user.id,
  });
  loadAllLocales();
  configureClient({
    baseUrl: server.url,
    locale: 'en',
    t: i18nObject('en'),
    reload: () => {},
    fetch: async (...args) => {
      network.calls++;
      if (!network.up) throw new TypeError('Failed to fetch');
      return fetch(...args);
    },
  });
}

let dbCounter = 0;
export function freshDb(): AppDB {
  return new AppDB(`editor-test-${process.pid}-${++dbCounter}`);
}

export type EditorActor = Actor<typeof editorMachine>;

export function startEditor(pid: number, userId: number, db: AppDB): EditorActor {
  return createActor(editorMachine, { input: { pid, userId, db } }).start();
}

export const docState = (actor: EditorActor) => (actor.getSnapshot().value as { doc: string }).doc;

export async function until(actor: EditorActor, state: string, timeout = 8000) {
  await waitFor(actor, (s) => (s.value as { doc: string }).doc === state, { timeout });
}

/** Waits until every change has been written to Dexie. */
export async function drafted(actor: EditorActor, timeout = 5000) {
  actor.send({ type: 'draft.flush' });
  await waitFor(
    actor,
    (s) =>
      (s.value as { autosave: string }).autosave === 'idle' &&
      s.context.writtenRevision >= s.context.draftRevision,
    { timeout },
  );
}

export function firstBlockId(actor: EditorActor): string {
  return actor.getSnapshot().context.doc.content.questionnaires[0].blocks[0].id;
}
