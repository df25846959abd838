import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index';
import { bigInt } from './helpers';

// Project settings, target platforms, and two columns on projects: a lower-cased name for search
// (SQLite's lower() knows only ASCII, so the server writes it) and the time of the last status change.
export function migration(dialect: Dialect) {
  const ts = bigInt(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('projects')
        .addColumn('search_name', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.alterTable('projects').addColumn('status_changed_at', ts).execute();
      await sql`update projects set search_name = lower(name), status_changed_at = updated_at`.execute(db);
      await db.schema
        .createIndex('projects_created_idx')
        .on('projects')
        .columns(['created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('projects_search_name_idx')
        .on('projects')
        .columns(['search_name', 'id'])
        .execute();

      await db.schema
        .createTable('project_settings')
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('project_settings_pk', ['project_id', 'key'])
        .execute();
      await db.schema
        .createTable('project_target_platforms')
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('platform_id', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('project_target_platforms_pk', ['project_id', 'platform_id'])
        .execute();
      await db.schema
        .createIndex('project_target_platforms_platform_idx')
        .on('project_target_platforms')
        .columns(['platform_id', 'project_id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('project_target_platforms').execute();
      await db.schema.dropTable('project_settings').execute();
      await db.schema.dropIndex('projects_search_name_idx').execute();
      await db.schema.dropIndex('projects_created_idx').execute();
      await db.schema.alterTable('projects').dropColumn('status_changed_at').execute();
      await db.schema.alterTable('projects').dropColumn('search_name').execute();
    },
  };
}
