import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index';
import { bigInt, withId } from './helpers';
import { CATEGORY_SEED, ORGANIZATION_TYPES } from '../../../src/domain/organizations';

// People: mailed links (invitations, password resets), organization types, seeded categories, and
// the lower-cased search columns that make search case-insensitive for Cyrillic in SQLite too
// (SQLite's lower() and LIKE only fold ASCII).
export function migration(dialect: Dialect) {
  const ts = bigInt(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await withId(db.schema.createTable('user_tokens'), dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .addColumn('used_at', ts)
        .addColumn('revoked_at', ts)
        .execute();
      await db.schema
        .createIndex('user_tokens_user_idx')
        .on('user_tokens')
        .columns(['user_id', 'purpose'])
        .execute();

      await db.schema
        .createTable('organization_types')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .execute();

      await db.schema.alterTable('categories').addColumn('code', 'text').execute();
      await db.schema.createIndex('categories_code_idx').on('categories').column('code').unique().execute();
      await db.schema.alterTable('organizations').addColumn('name_key', 'text').execute();
      await db.schema
        .createIndex('organizations_name_key_idx')
        .on('organizations')
        .column('name_key')
        .unique()
        .execute();
      await db.schema
        .createIndex('organizations_type_idx')
        .on('organizations')
        .columns(['type', 'id'])
        .execute();
      await db.schema.alterTable('users').addColumn('search_text', 'text').execute();
      // The user lists sort by registration date by default, within one page's roles.
      await db.schema
        .createIndex('users_role_created_idx')
        .on('users')
        .columns(['role_id', 'created_at'])
        .execute();
      // …and by name, case-insensitively, without sorting the whole role on every page.
      await db.schema
        .createIndex('users_role_name_idx')
        .on('users')
        .expression(sql`role_id, lower(fullname), id`)
        .execute();
      await db.schema
        .createIndex('history_chapter_idx')
        .on('history')
        .columns(['chapter', 'created_at'])
        .execute();
      await db.schema
        .createIndex('history_email_idx')
        .on('history')
        .columns(['email', 'created_at'])
        .execute();

      const anyDb = db as Kysely<{
        organization_types: { id: number; code: string };
        categories: { name: string; code: string };
      }>;
      await anyDb
        .insertInto('organization_types')
        .values(ORGANIZATION_TYPES.map((t) => ({ id: t.id, code: t.code })))
        .execute();
      await anyDb
        .insertInto('categories')
        .values(CATEGORY_SEED.map((c) => ({ name: c.name, code: c.code })))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('history_email_idx').execute();
      await db.schema.dropIndex('history_chapter_idx').execute();
      await db.schema.dropIndex('users_role_name_idx').execute();
      await db.schema.dropIndex('users_role_created_idx').execute();
      await db.schema.alterTable('users').dropColumn('search_text').execute();
      await db.schema.dropIndex('organizations_type_idx').execute();
      await db.schema.dropIndex('organizations_name_key_idx').execute();
      await db.schema.alterTable('organizations').dropColumn('name_key').execute();
      await db.schema.dropIndex('categories_code_idx').execute();
      await db.schema.alterTable('categories').dropColumn('code').execute();
      await db.schema.dropTable('organization_types').execute();
      await db.schema.dropTable('user_tokens').execute();
    },
  };
}
