import type { Kysely } from 'kysely';
import type { Dialect } from '../index';

// The version history (issue #16): each kept version carries the change-log summary of what it
// changed against the version before (codes 001–013 with labels, as JSON), computed once at save,
// so listing a project's history never loads or diffs contents. Null for versions saved before.
//
// SQLite keeps a row's columns in order, and `content` (up to megabytes) comes before `saved_at`,
// `saved_by` and the new `summary`: reading those would walk every version's content pages. A
// covering index answers the history list from the index alone. PostgreSQL keeps large values out
// of line (TOAST) and caps index entries, so it needs none.
export function migration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('project_content_versions').addColumn('summary', 'text').execute();
      if (dialect === 'sqlite')
        await db.schema
          .createIndex('project_content_versions_list')
          .on('project_content_versions')
          .columns(['project_id', 'version', 'saved_at', 'saved_by', 'summary'])
          .execute();
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'sqlite') await db.schema.dropIndex('project_content_versions_list').execute();
      await db.schema.alterTable('project_content_versions').dropColumn('summary').execute();
    },
  };
}
