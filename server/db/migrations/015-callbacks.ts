import type { Kysely } from 'kysely';
import type { Dialect } from '../index';
import { bigInt } from './helpers';

// Block callbacks (docs/decisions/callbacks.md): the outbox of deliveries, written in the answer's
// transaction and kept as the log, and each project's signing secret. A respondent completes a
// block once (respondent_id, block_id unique; NULLs, the test calls, never collide).
export function migration(dialect: Dialect) {
  const ts = bigInt(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('callback_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('block_id', 'text', (c) => c.notNull())
        .addColumn('respondent_id', 'integer')
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('test', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_status_code', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('next_attempt_at', ts, (c) => c.notNull())
        .addColumn('lease_until', ts)
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('delivered_at', ts)
        .execute();
      await db.schema
        .createIndex('callback_deliveries_once')
        .on('callback_deliveries')
        .columns(['respondent_id', 'block_id'])
        .unique()
        .execute();
      // The sender's pick: pending ones by due time.
      await db.schema
        .createIndex('callback_deliveries_due')
        .on('callback_deliveries')
        .columns(['status', 'next_attempt_at'])
        .execute();
      // The log: a project's (and a block's) latest first.
      await db.schema
        .createIndex('callback_deliveries_log')
        .on('callback_deliveries')
        .columns(['project_id', 'block_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('callback_deliveries_project')
        .on('callback_deliveries')
        .columns(['project_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('project_callback_secrets')
        .addColumn('project_id', 'integer', (c) =>
          c.primaryKey().references('projects.id').onDelete('cascade'),
        )
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('project_callback_secrets').execute();
      await db.schema.dropTable('callback_deliveries').execute();
    },
  };
}
