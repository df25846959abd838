import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index';

// SQLite only: the answer rows that have a text (open answers, "other" texts, the places picked in
// cityAuto and regionAuto questions) by project, question and respondent, with the text, so a
// report filtered by a city and an age range reads the places' texts and an open question's page
// from the index alone (docs/decisions/reports.md). Moscow and ages 25–40 at 100 000 respondents:
// the places 72 → 29 ms; the report's covering index (009) has no text, and a table lookup per
// matching row was most of it. The row id, by which the open answers' page is ordered, is in every
// SQLite index. PostgreSQL reads those rows from the table in its parallel scan anyway, and its
// b-tree refuses entries over about 2.7 kB, which a long open answer is.
export function migration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'sqlite') return;
      await sql`create index respondent_answers_texts
        on respondent_answers (project_id, question_id, respondent_id, text) where text is not null`.execute(
        db,
      );
    },
    async down(db: Kysely<unknown>) {
      if (dialect !== 'sqlite') return;
      await sql`drop index respondent_answers_texts`.execute(db);
    },
  };
}
