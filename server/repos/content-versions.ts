import type { Db } from '../db';
import { readContent, EMPTY_CONTENT, type ProjectContent } from '../../src/domain/content/model';
import { summarizeChanges } from '../../src/domain/content/diff';
import {
  SUMMARY_MAX,
  type VersionDocument,
  type VersionEntry,
  type VersionSummary,
} from '../../src/domain/content/versions';

// The kept versions of a project's content (table project_content_versions, written by
// writeContent in ./content.ts with each save): the list with who, when and the change summary,
// without touching the contents; and one version's content.

/** The summary stored with a version: what it changed against `previous`, in the change-log's words. */
export function versionSummary(previous: ProjectContent | null, content: ProjectContent): string {
  const changes = summarizeChanges(previous ?? EMPTY_CONTENT, content);
  const summary: VersionSummary = { total: changes.length, changes: changes.slice(0, SUMMARY_MAX) };
  return JSON.stringify(summary);
}

function parseSummary(json: string | null): VersionSummary | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as VersionSummary;
  } catch {
    return null;
  }
}

const entryColumns = ['v.version', 'v.saved_at', 'v.saved_by', 'v.summary', 'u.email', 'u.fullname'] as const;

function entryOf(r: {
  version: number;
  saved_at: number | string | bigint;
  saved_by: number | null;
  summary: string | null;
  email: string | null;
  fullname: string | null;
}): VersionEntry {
  return {
    version: r.version,
    savedAt: Number(r.saved_at),
    savedBy:
      r.saved_by !== null && r.email !== null
        ? { id: r.saved_by, email: r.email, fullname: r.fullname ?? '' }
        : null,
    summary: parseSummary(r.summary),
  };
}

export async function listVersions(db: Db, pid: number): Promise<VersionEntry[]> {
  const rows = await db
    .selectFrom('project_content_versions as v')
    .leftJoin('users as u', 'u.id', 'v.saved_by')
    .select(entryColumns)
    .where('v.project_id', '=', pid)
    .orderBy('v.version', 'desc')
    .execute();
  return rows.map(entryOf);
}

export async function loadVersion(db: Db, pid: number, version: number): Promise<VersionDocument | null> {
  const row = await db
    .selectFrom('project_content_versions as v')
    .leftJoin('users as u', 'u.id', 'v.saved_by')
    .select([...entryColumns, 'v.content'])
    .where('v.project_id', '=', pid)
    .where('v.version', '=', version)
    .executeTakeFirst();
  if (!row) return null;
  const content = readContent(JSON.parse(row.content));
  if (!content) throw new Error('stored project content does not match the schema');
  return { ...entryOf(row), content };
}
