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
}
