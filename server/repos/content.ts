import type { Db } from '../db';
import {
  readContent,
  countQuestions,
  EMPTY_CONTENT,
  type ProjectContent,
} from '../../src/domain/content/model';
import { checkContent } from '../../src/domain/content/rules';
import type { Problem } from '../../src/domain/content/problems';
import { versionSummary } from './content-versions';

// The stored questionnaire content of a project: one current row per project (content JSON with its
// version) and the latest saved versions. A project without a row has empty content at version 0.
// Saves are optimistic: the update names the version it replaces, so two writers can never both win.

type Executor = Pick<Db, 'selectFrom' | 'insertInto' | 'deleteFrom' | 'updateTable'>;

/** Saved versions kept per project (older ones are deleted as new ones come); README, Environment. */
export const KEPT_VERSIONS = 100;

export interface StoredContent {
  version: number;
  content: ProjectContent;
  updatedAt: number | null;
  updatedBy: number | null;
}

/**
 * Every problem of the stored content, the incomplete ones included: what sending a project to
 * moderation must refuse (the first problem's code, e.g. 40501, is the answer's code).
 */
export async function contentProblems(db: Db, p: { id: number; type: number }): Promise<Problem[]> {
  const { content } = await loadContent(db, p.id);
  return checkContent(content, { projectType: p.type });
}

/** Stored JSON is ours, but parse it anyway so older shapes get today's defaults (and lose keys no longer known). */
function parseStored(json: string): ProjectContent {
  const content = readContent(JSON.parse(json));
  if (!content) throw new Error('stored project content does not match the schema');
  return content;
}

const contentRow = (db: Executor, pid: number) =>
  db.selectFrom('project_contents').selectAll().where('project_id', '=', pid).executeTakeFirst();

export async function loadContent(db: Executor, pid: number): Promise<StoredContent> {
  const row = await contentRow(db, pid);
  if (!row) return { version: 0, content: structuredClone(EMPTY_CONTENT), updatedAt: null, updatedBy: null };
  return {
    version: row.version,
    content: parseStored(row.content),
    updatedAt: Number(row.updated_at),
    updatedBy: row.updated_by,
  };
}

/**
 * The JSON of recent versions as GET /project sends them, per database and project: reopening a
 * project sends the text again instead of parsing, checking and serialising it again (about 7 ms
 * of the server's time at 1 000 questions, on the path of every editor open). A version is never
 * rewritten, so (project, version) names one text; the cache is bounded by its size in characters.
 */
const jsonCache = new WeakMap<object, Map<number, { version: number; json: string }>>();
const JSON_CACHE_CHARS = 64 * 1024 * 1024;

export async function loadContentJson(
  db: Db,
  pid: number,
  /** The current version when the caller has just read it (projectWithVersion); null: no content. */
  known?: { version: number; updatedAt: number } | null,
): Promise<{ version: number; updatedAt: number | null; json: string }> {
  let byPid = jsonCache.get(db);
  if (!byPid) jsonCache.set(db, (byPid = new Map()));
  let entry = byPid.get(pid);
  // The version alone first: when its text is kept, the 688 KB of a 1 000-question project are
  // neither read from the database nor decoded again.
  const current =
    known === undefined
      ? await db
          .selectFrom('project_contents')
          .select(['version', 'updated_at'])
          .where('project_id', '=', pid)
          .executeTakeFirst()
      : known && { version: known.version, updated_at: known.updatedAt };
  if (!current) return { version: 0, updatedAt: null, json: JSON.stringify(EMPTY_CONTENT) };
  let row: { version: number; updated_at: number | string | bigint } = current;
  if (entry?.version !== current.version) {
    const full = await contentRow(db, pid);
    if (!full) return { version: 0, updatedAt: null, json: JSON.stringify(EMPTY_CONTENT) };
    row = full;
    entry = { version: full.version, json: JSON.stringify(parseStored(full.content)) };
  }
  // Most recently used last; the oldest go first when the texts together pass the bound.
  byPid.delete(pid);
  byPid.set(pid, entry!);
  let chars = 0;
  for (const e of byPid.values()) chars += e.json.length;
  for (const [old, e] of byPid) {
    if (chars <= JSON_CACHE_CHARS || old === pid) break;
    byPid.delete(old);
    chars -= e.json.length;
  }
  return { version: row.version, updatedAt: Number(row.updated_at), json: entry!.json };
}

/**
 * Writes `content` as the version after `baseVersion`, only if `baseVersion` is still current.
 * Returns the new version, or null when someone saved in between (the caller answers 412).
 * Run it inside a transaction: the current row and the kept version are written together.
 */
export async function writeContent(
  db: Executor,
  pid: number,
  baseVersion: number,
  content: ProjectContent,
  userId: number | null,
  now = Date.now(),
  /** The content being replaced, for the version's change summary (empty content when none). */
  previous: ProjectContent = EMPTY_CONTENT,
): Promise<number | null> {
  const json = JSON.stringify(content);
  const question_count = countQuestions(content);
  const version = baseVersion + 1;
  if (baseVersion === 0) {
    const inserted = await db
      .insertInto('project_contents')
      .values({
        project_id: pid,
        version,
        content: json,
        question_count,
        updated_at: now,
        updated_by: userId,
      })
      .onConflict((oc) => oc.column('project_id').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return null;
  } else {
    const updated = await db
      .updateTable('project_contents')
      .set({ version, content: json, question_count, updated_at: now, updated_by: userId })
      .where('project_id', '=', pid)
      .where('version', '=', baseVersion)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return null;
  }
  await db
    .insertInto('project_content_versions')
    .values({
      project_id: pid,
      version,
      content: json,
      saved_at: now,
      saved_by: userId,
      summary: versionSummary(previous, content),
    })
    .execute();
  await db
    .deleteFrom('project_content_versions')
    .where('project_id', '=', pid)
    .where('version', '<=', version - KEPT_VERSIONS)
    .execute();
  return version;
}

/** Copies the current content of one project to another (cloning); the copy starts at version 1. */
export async function copyContent(
  db: Executor,
  fromPid: number,
  toPid: number,
  userId: number | null,
): Promise<void> {
  const { content, version } = await loadContent(db, fromPid);
  if (version === 0) return;
  await db.deleteFrom('project_contents').where('project_id', '=', toPid).execute();
  await writeContent(db, toPid, 0, content, userId);
}

/** Every picture hash in the list that is not in the pictures table. */
export async function missingPictures(db: Executor, hashes: string[]): Promise<Set<string>> {
  const wanted = [...new Set(hashes)];
  if (wanted.length === 0) return new Set();
  const found = new Set<string>();
  for (let i = 0; i < wanted.length; i += 500) {
    const rows = await db
      .selectFrom('pictures')
      .select('hash')
      .where('hash', 'in', wanted.slice(i, i + 500))
      .execute();
    for (const r of rows) found.add(r.hash);
  }
  return new Set(wanted.filter((h) => !found.has(h)));
}
