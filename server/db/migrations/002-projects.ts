import type { Kysely } from 'kysely';
import type { Dialect } from '../index';
import { bigInt, withId } from './helpers';

// Projects: one row per survey project; its content lives in the content tables.
export function migration(dialect: Dialect) {
  const ts = bigInt(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await withId(db.schema.createTable('projects'), dialect)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('organization_id', 'integer', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('template', 'text', (c) => c.notNull())
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('link_token', 'text', (c) => c.unique())
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('projects_org_idx')
        .on('projects')
        .columns(['organization_id', 'id'])
        .execute();
      await db.schema.createIndex('projects_status_idx').on('projects').columns(['status', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('projects').execute();
    },
  };
}
