import type { Kysely } from 'kysely';
import type { Dialect } from '../index';
import { bigInt, withId } from './helpers';
import { ROLES, USER_STATUSES } from '../../../src/domain/roles';

// Users, roles, statuses, organizations, sessions, rate limits and the log.
export function migration(dialect: Dialect) {
  const ts = bigInt(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('roles')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('deleted_at', ts, (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('user_statuses')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .execute();
      await withId(db.schema.createTable('categories'), dialect)
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .execute();
      await withId(db.schema.createTable('organizations'), dialect)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('category_id', 'integer', (c) => c.references('categories.id').onDelete('set null'))
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await withId(db.schema.createTable('users'), dialect)
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('fullname', 'text', (c) => c.notNull())
        .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id'))
        .addColumn('status_id', 'integer', (c) => c.notNull().references('user_statuses.id'))
        .addColumn('organization_id', 'integer', (c) => c.references('organizations.id').onDelete('set null'))
        .addColumn('category_id', 'integer', (c) => c.references('categories.id').onDelete('set null'))
        .addColumn('password_hash', 'text')
        .addColumn('locale', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('users_role_idx').on('users').columns(['role_id', 'id']).execute();
      await db.schema
        .createTable('auth_families')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .addColumn('revoked_at', ts)
        .execute();
      await db.schema.createIndex('auth_families_user_idx').on('auth_families').column('user_id').execute();
      await withId(db.schema.createTable('auth_tokens'), dialect)
        .addColumn('family_id', 'text', (c) => c.notNull().references('auth_families.id').onDelete('cascade'))
        .addColumn('access_hash', 'text', (c) => c.notNull().unique())
        .addColumn('refresh_hash', 'text', (c) => c.notNull().unique())
        .addColumn('access_expires_at', ts, (c) => c.notNull())
        .addColumn('rotated_at', ts)
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('auth_tokens_family_idx').on('auth_tokens').column('family_id').execute();
      await db.schema
        .createTable('rate_limits')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('window_start', ts, (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .execute();
      await withId(db.schema.createTable('history'), dialect)
        .addColumn('user_id', 'integer')
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('organization', 'text', (c) => c.notNull())
        .addColumn('chapter', 'text', (c) => c.notNull())
        .addColumn('service', 'text', (c) => c.notNull())
        .addColumn('message_key', 'text', (c) => c.notNull())
        .addColumn('message_params', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('history_created_idx')
        .on('history')
        .columns(['created_at', 'id'])
        .execute();

      const anyDb = db as Kysely<{
        roles: { id: number; name: string; description: string; created_at: number; deleted_at: number };
        user_statuses: { id: number; name: string };
      }>;
      await anyDb
        .insertInto('roles')
        .values(
          ROLES.map((r) => ({
            id: r.id,
            name: r.name,
            description: r.description,
            created_at: r.createdAt,
            deleted_at: r.deletedAt,
          })),
        )
        .execute();
      await anyDb
        .insertInto('user_statuses')
        .values([...USER_STATUSES])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const t of [
        'history',
        'rate_limits',
        'auth_tokens',
        'auth_families',
        'users',
        'organizations',
        'categories',
        'user_statuses',
        'roles',
      ]) {
        await db.schema.dropTable(t).execute();
      }
    },
  };
}
