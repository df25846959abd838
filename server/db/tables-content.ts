import type { Generated } from 'kysely';

// The content tables (migration 006-content).

/** The current content of each project that has been saved at least once; no row means empty. */
export interface ProjectContentsTable {
  project_id: number;
  /** Raised by one on every save; GET /project sends it as the ETag, POST /project needs it in If-Match. */
  version: number;
  /** The content as JSON (src/domain/content/model.ts). */
  content: string;
  /** Questions in the content, so "is the questionnaire empty" needs no JSON parsing. */
  question_count: number;
  updated_at: number;
  updated_by: number | null;
}

/** Every saved version (the latest ones are kept), so a conflict or a mistake can be looked at later. */
export interface ProjectContentVersionsTable {
  id: Generated<number>;
  project_id: number;
  version: number;
  content: string;
  saved_at: number;
  saved_by: number | null;
  /** What this version changed against the one before, `{total, changes}` JSON (008); null before it. */
  summary: string | null;
}

/** Uploaded pictures, content-addressed (server/pictures/store.ts). */
export interface PicturesTable {
  /** SHA-256 of the bytes, hex. */
  hash: string;
  ext: string;
  size: number;
  /** The picture itself (022); null for a row written before 022 whose file has not been moved in yet. */
  bytes: Buffer | null;
  created_at: number;
  created_by: number | null;
}
