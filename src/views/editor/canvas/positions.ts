import type { AppDB } from '../../../db/AppDB';
import type { ProjectContent } from '../../../domain/content/model';
import { positionsFor, type LaidOut } from '../../../workers/layoutClient';
import { structureOf, structureText } from './elements';

// The canvas's positions for a content's structure, asked for once per structure: the page asks as
// soon as the project is loaded (the cached positions are read from Dexie while the outline and the
// toolbar render, before the canvas's chunk mounts), and the canvas gets the same answer.

const asked = new Map<string, Promise<LaidOut>>();
const KEEP = 4;

export function layoutOf(db: AppDB, pid: number, content: ProjectContent): Promise<LaidOut> {
  const key = `${pid}\n${structureText(content)}`;
  let laid = asked.get(key);
  if (!laid) {
    laid = positionsFor(db, pid, structureOf(content));
    asked.set(key, laid);
    // Only the last few structures: an edit asks for a new one, the old ones are not asked again.
    if (asked.size > KEEP) asked.delete(asked.keys().next().value!);
  }
  return laid;
}
