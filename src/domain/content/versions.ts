import * as v from 'valibot';
import type { ChangeSummary } from './diff';
import type { ProjectContent } from './model';
import { queryId } from '../validation';

// The version history of a project's content (issue #16): what GET /project/versions lists and
// GET /project/version answers, shared by the server routes and the editor's history panel.

/** Change rows kept in a version's summary; `total` still counts them all. */
export const SUMMARY_MAX = 50;

export interface VersionSummary {
  /** How many change rows the version made (the list below may be cut at SUMMARY_MAX). */
  total: number;
  changes: ChangeSummary[];
}

export interface VersionAuthor {
  id: number;
  email: string;
  fullname: string;
}

export interface VersionEntry {
  version: number;
  /** Unix milliseconds. */
  savedAt: number;
  /** Null when the user was deleted since. */
  savedBy: VersionAuthor | null;
  /** Null for versions saved before summaries were kept. */
  summary: VersionSummary | null;
}

export interface VersionList {
  /** The project's current version (the newest in the list, unless none is kept). */
  current: number;
  /** How many versions the server keeps per project. */
  kept: number;
  /** Newest first. */
  versions: VersionEntry[];
}

export interface VersionDocument extends VersionEntry {
  content: ProjectContent;
}

/** Integers bound to the 32-bit columns they are compared with (PostgreSQL refuses wider ones). */
export const VersionsQuery = v.object({ pid: queryId });
export const VersionQuery = v.object({ pid: queryId, version: queryId });
