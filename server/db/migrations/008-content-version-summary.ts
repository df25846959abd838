import type { Kysely } from 'kysely';
import type { Dialect } from '../index';

// The version history (issue #16): each kept version carries the change-log summary of what it
// changed against the version before (codes 001–013 with labels, as JSON), computed once at save,
// so listing a project's history never loads or diffs contents. Null for versions saved before.
export function migration(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('project_content_versions').addColumn('summary', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('project_content_versions').dropColumn('summary').execute();
    },
  };
}
