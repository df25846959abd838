import type { Migration } from 'kysely';
import type { Dialect } from '../index';
import { migration as m001 } from './001-core';
import { migration as m002 } from './002-projects';

// Every migration, registered by name in order (never scanned from disk). Each is a factory taking
// the dialect, so one migration serves SQLite and PostgreSQL. Add new ones at the end.
const factories: Record<string, (dialect: Dialect) => Migration> = {
  '001-core': m001,
  '002-projects': m002,
};

export function migrationsFor(dialect: Dialect): Record<string, Migration> {
  return Object.fromEntries(Object.entries(factories).map(([name, f]) => [name, f(dialect)]));
}
