import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index';

// The sign-in state's epoch (docs/decisions/reads.md): one row whose counter moves forward, in the
// same transaction, with every change that can end or alter a signed-in session: a user updated or
// deleted (deactivation, password, role, organization), a session family revoked (logout, reuse),
// a token pair rotated, an organization changed. Each server keeps verified sessions in memory and
// reads this one row (by primary key) to know whether anything changed since it verified them, so
// revocation stays immediate across servers. Triggers, not application code, so that no path that
// changes these tables (a migration, an administrator's SQL) can forget it.

const TRIGGERS = [
  { name: 'auth_epoch_users', table: 'users', event: 'update or delete' },
  { name: 'auth_epoch_families', table: 'auth_families', event: 'update or delete' },
  { name: 'auth_epoch_tokens', table: 'auth_tokens', event: 'update or delete' },
  { name: 'auth_epoch_organizations', table: 'organizations', event: 'update or delete' },
  { name: 'auth_epoch_categories', table: 'categories', event: 'update or delete' },
] as const;

export function migration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>) {
      await sql`create table auth_epoch (id integer primary key, n bigint not null)`.execute(db);
      await sql`insert into auth_epoch (id, n) values (1, 0)`.execute(db);
      if (dialect === 'postgres') {
        await sql`create function auth_epoch_bump() returns trigger language plpgsql as $$
          begin update auth_epoch set n = n + 1 where id = 1; return null; end $$`.execute(db);
        for (const t of TRIGGERS)
          await sql`create trigger ${sql.raw(t.name)} after ${sql.raw(t.event)} on ${sql.table(t.table)}
            for each row execute function auth_epoch_bump()`.execute(db);
        return;
      }
      // SQLite has one event per trigger.
      for (const t of TRIGGERS)
        for (const event of t.event.split(' or '))
          await sql`create trigger ${sql.raw(`${t.name}_${event}`)} after ${sql.raw(event)} on ${sql.table(t.table)}
            begin update auth_epoch set n = n + 1 where id = 1; end`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      for (const t of TRIGGERS) {
        if (dialect === 'postgres')
          await sql`drop trigger ${sql.raw(t.name)} on ${sql.table(t.table)}`.execute(db);
        else
          for (const event of t.event.split(' or '))
            await sql`drop trigger ${sql.raw(`${t.name}_${event}`)}`.execute(db);
      }
      if (dialect === 'postgres') await sql`drop function auth_epoch_bump()`.execute(db);
      await sql`drop table auth_epoch`.execute(db);
    },
  };
}
