import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index';

// PostgreSQL only: the planner multiplies the distinct values of question_id, answer_id,
// statement_id and value when it estimates the report's GROUP BY (217 000 groups estimated at
// 100 000 respondents, 148 real), and for so many groups it chose a single-process aggregate
// (880 ms) where the hand-written query runs in parallel. Extended statistics on the four columns
// together give it the real number, and the same parallel plan (370 ms). SQLite has no such
// estimates to correct. The statistics are filled by the next ANALYZE (autovacuum's, or this one).
export function migration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      await sql`create statistics respondent_answers_cells (ndistinct)
        on question_id, answer_id, statement_id, value from respondent_answers`.execute(db);
      await sql`analyze respondent_answers`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      await sql`drop statistics respondent_answers_cells`.execute(db);
    },
  };
}
