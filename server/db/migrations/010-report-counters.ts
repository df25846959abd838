import type { Kysely } from 'kysely';
import type { Dialect } from '../index';
import { real } from './helpers';

// The report's counters, kept at write time (docs/decisions/reports.md): a GROUP BY over 2 million
// answer rows takes seconds on SQLite however it is indexed, and the report of a project must come
// in 500 ms. Every answer page adds its rows' counts here in the answer's own transaction (and takes
// away the counts of the rows a resend or a Back replaces), so the report without filters, or with
// only a portrait, sums a few thousand rows instead of reading every answer.
//
// One row per (project, portrait, question, kind, answer, statement, value, place, shard). Every key
// column is NOT NULL ('' or 0 stand for "none", has_value says whether value is one), because NULL
// is never equal to NULL in a unique index and the upsert needs the key to match. kind 0 counts
// answer rows; kind 1 counts the respondents who answered a question that takes several rows each
// (multiple choice, matrix, ranking). `place` is the picked city or region of a cityAuto/regionAuto
// question and '' otherwise (open texts are never a key). `shard` spreads one hot counter over
// several rows (respondent id modulo SHARDS) so concurrent respondents on PostgreSQL do not queue on
// one row lock; the report sums the shards.
//
// The respondents' own counts (status, city, region) stay a GROUP BY over the respondents table
// (one row per respondent), read from the covering index below in the GROUP BY's order (no sort),
// the portrait last so that a portrait filter is answered from the same index.
//
// Existing answers are counted once, by 011 (the server does not serve until migrations are done).
export function migration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('report_counts')
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('portrait_id', 'text', (c) => c.notNull())
        .addColumn('question_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'integer', (c) => c.notNull())
        .addColumn('answer_id', 'text', (c) => c.notNull())
        .addColumn('statement_id', 'text', (c) => c.notNull())
        .addColumn('has_value', 'integer', (c) => c.notNull())
        .addColumn('value', real(dialect), (c) => c.notNull())
        .addColumn('place', 'text', (c) => c.notNull())
        .addColumn('shard', 'integer', (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('report_counts_pk', [
          'project_id',
          'portrait_id',
          'question_id',
          'kind',
          'answer_id',
          'statement_id',
          'has_value',
          'value',
          'place',
          'shard',
        ])
        .execute();
      await db.schema
        .createIndex('respondents_report_cover')
        .on('respondents')
        .columns(['project_id', 'status', 'city', 'region', 'portrait_id'])
        .execute();

      // The answers that existed then are counted by 011, which made this table anew (its key gained
      // the respondent's gender, education and age): counting here with today's code would write
      // columns this table does not have.
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('respondents_report_cover').execute();
      await db.schema.dropTable('report_counts').execute();
    },
  };
}
