import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Db, Dialect } from '../index';

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

/** The projects that have stored answers, with their content as stored (the counters' migrations). */
export function projectsWithAnswers(db: Kysely<unknown>) {
  return (db as unknown as Db)
    .selectFrom('project_contents')
    .select(['project_id', 'content'])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('respondent_answers')
          .select('respondent_answers.id')
          .whereRef('respondent_answers.project_id', '=', 'project_contents.project_id'),
      ),
    )
    .execute();
}
