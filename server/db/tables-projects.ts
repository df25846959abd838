// The projects table (migration 002-projects). Content (questionnaires, portraits) is kept by the
// content tables; settings by project_settings.
export interface ProjectsTable {
  id: import('kysely').Generated<number>;
  name: string;
  priority: number;
  organization_id: number;
  /** default | target | directLink | directLinkAdmin */
  template: string;
  /** 1 default, 2 target */
  type: number;
  status: number;
  /** The stable token of the public survey link /s/<token>; set when the link is first taken. */
  link_token: string | null;
  created_by: number | null;
  created_at: number;
  updated_at: number;
  /** The name in lower case (JS toLowerCase), so search ignores case for Cyrillic on SQLite too (005). */
  search_name: string;
  /** When the status last changed, unix ms (005). */
  status_changed_at: number | null;
}

/** One row per project setting that differs from its default (migration 005). JSON values. */
export interface ProjectSettingsTable {
  project_id: number;
  key: string;
  value: string;
}

/** The platforms a project targets (ids of src/domain/lookups.ts TARGET_PLATFORMS). */
export interface ProjectTargetPlatformsTable {
  project_id: number;
  platform_id: number;
}
