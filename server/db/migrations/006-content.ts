import type { Kysely } from 'kysely';
import type { Dialect } from '../index';
import { bigInt, withId } from './helpers';

// Questionnaire content: the current content of each project with its version, the kept versions,
// and uploaded pictures.
export function migration(dialect: Dialect) {
  const ts = bigInt(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('project_contents')
        .addColumn('project_id', 'integer', (c) =>
          c.primaryKey().references('projects.id').onDelete('cascade'),
        )
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('question_count', 'integer', (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .execute();
      await withId(db.schema.createTable('project_content_versions'), dialect)
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('saved_at', ts, (c) => c.notNull())
        .addColumn('saved_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addUniqueConstraint('project_content_versions_uq', ['project_id', 'version'])
        .execute();
      await db.schema
        .createTable('pictures')
        .addColumn('hash', 'text', (c) => c.primaryKey())
        .addColumn('ext', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const t of ['pictures', 'project_content_versions', 'project_contents'])
        await db.schema.dropTable(t).execute();
    },
  };
}
