import type { CreateTableBuilder } from 'kysely';
import type { Dialect } from '../index';

// Small pieces that let one migration serve both dialects.

/** An auto-incrementing integer primary key named id. */
export function withId<T extends string>(b: CreateTableBuilder<T, never>, dialect: Dialect) {
  return dialect === 'postgres'
    ? b.addColumn('id', 'serial', (c) => c.primaryKey())
    : b.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** The column type for unix-millisecond times and other large integers. */
export function bigInt(dialect: Dialect) {
  return dialect === 'postgres' ? 'bigint' : 'integer';
}

/** A floating point column. */
export function real(dialect: Dialect) {
  return dialect === 'postgres' ? 'double precision' : 'real';
}
