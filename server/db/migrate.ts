import { Migrator } from 'kysely';
import type { DbHandle } from './index';
import { migrationsFor } from './migrations';

/** Brings the schema up to date; throws (and the server does not start) if a migration fails. */
export async function migrateToLatest({ db, dialect }: DbHandle): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrationsFor(dialect) },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
