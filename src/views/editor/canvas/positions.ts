import type { AppDB } from '../../../db/AppDB';
import type { ProjectContent } from '../../../domain/content/model';
import { positionsFor, type LaidOut } from '../../../workers/layoutClient';
import { structureOf, structureText } from './elements';

// The canvas's positions for a content's structure, asked for once per structure: the page asks as
// soon as the project is loaded (the cached positions are read from Dexie while the outline and the
// toolbar render, before the canvas's chunk mounts), and the canvas gets the same answer.

/** A structure's positions asked for, and their answer once it came. */
interface Asked {
  db: AppDB;
  laid: Promise<LaidOut>;
  answer?: LaidOut;
}

const asked = new Map<string, Asked>();
const KEEP = 4;

const keyOf = (pid: number, content: ProjectContent) => `${pid}\n${structureText(content)}`;

export function layoutOf(db: AppDB, pid: number, content: ProjectContent): Promise<LaidOut> {
  const key = keyOf(pid, content);
  let entry = asked.get(key);
  if (!entry || entry.db !== db) {
    const laid = positionsFor(db, pid, structureOf(content));
    const e: Asked = { db, laid };
    void laid.then((answer) => (e.answer = answer)).catch(() => {});
    asked.set(key, (entry = e));
    // Only the last few structures: an edit asks for a new one, the old ones are not asked again.
    if (asked.size > KEEP) asked.delete(asked.keys().next().value!);
  }
  return entry.laid;
}

/**
 * The positions already answered for this structure, if any: the canvas mounts with them (the page
 * asked while the outline rendered) instead of rendering once without and again with them.
 */
export function layoutKnown(db: AppDB, pid: number, content: ProjectContent): LaidOut | undefined {
  const entry = asked.get(keyOf(pid, content));
  return entry && entry.db === db ? entry.answer : undefined;
}
