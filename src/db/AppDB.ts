import Dexie, { type DexieOptions, type EntityTable } from 'dexie';
import type { ChangeLogRow } from '../domain/content/changelog';
import type { EditorProject, ProjectContent } from '../domain/content/model';
import { APP_DB_NAME } from './earlyRead';

// The browser's own store (IndexedDB through Dexie), for the project editor working offline first.
// What survives a reload or a killed tab: every project's draft (its content, the server version it
// is based on, whether it holds changes the server lacks) and the change-log rows of those changes.
// Nothing here syncs by itself: the editor machine writes a draft and its rows in one transaction
// per debounced autosave, and clears them when a save to the server succeeds.

/** A draft as the editor uses it. */
export interface Draft {
  pid: number;
  /** Whose draft it is; a draft of another user of this browser is never shown. */
  userId: number;
  content: ProjectContent;
  /** The server version the content started from (the If-Match of the next save). */
  baseVersion: number;
  /** Unix milliseconds of the last autosave. */
  updatedAt: number;
  /** True while it holds changes the server does not have. */
  dirty: boolean;
  /** The project as last loaded, so the editor can open it offline. */
  project: EditorProject;
}

/**
 * A draft as the table keeps it: the content as JSON text. One string is cloned into IndexedDB far
 * faster than the object tree of a large questionnaire (tests/bench/dexie.bench.ts), and the
 * autosave runs on every pause in typing.
 */
export type DraftRow = Omit<Draft, 'content'> & { content: string };

/** Canvas positions computed by the layout worker for one project at one content version. */
export interface LayoutRow {
  pid: number;
  /** A hash of the content's structure the positions were computed for. */
  key: string;
  /** Node id → position. */
  positions: Record<string, { x: number; y: number }>;
  updatedAt: number;
}

/** A picture chosen while offline: uploaded by the next save, then its placeholder URL is replaced. */
export interface PendingPictureRow {
  /** The local placeholder id the content refers to until the upload. */
  id: string;
  pid: number;
  blob: Blob;
  name: string;
  createdAt: number;
}

export class AppDB extends Dexie {
  /** One row per project opened in the editor: the latest local copy. Cleared never; overwritten by each autosave. */
  drafts!: EntityTable<DraftRow, 'pid'>;
  /** One row per edit not yet saved to the server (codes 001–013); rows up to a save are deleted when it succeeds. */
  changeLog!: EntityTable<ChangeLogRow, 'id'>;

  /** Canvas layouts by project; overwritten when the structure changes, never needed for correctness. */
  layouts!: EntityTable<LayoutRow, 'pid'>;
  /** Pictures waiting for the network; deleted once uploaded. */
  pendingPictures!: EntityTable<PendingPictureRow, 'id'>;

  /** `options` lets Node tests and benchmarks hand in their own IndexedDB (fake-indexeddb). */
  constructor(name = APP_DB_NAME, options?: DexieOptions) {
    super(name, options);
    this.version(1).stores({
      drafts: 'pid',
      changeLog: '++id, pid, [pid+seq]',
    });
    this.version(2).stores({ layouts: 'pid', pendingPictures: 'id, pid' });
  }
}

let shared: AppDB | null = null;

/** The app's database, opened on first use (the editor is the only page that needs it). */
export function appDB(): AppDB {
  shared ??= new AppDB();
  return shared;
}
