import type { Kysely } from 'kysely';
import type { Dialect } from '../index';
import { bigInt, real, withId } from './helpers';

// Respondents and their answers (DESIGN.md section 8): rows, not JSON blobs, so the report is a
// GROUP BY with the filters (gender, age, city, education, portrait) as WHERE clauses. Portrait
// quotas are counted in their own rows and raised by a conditional update, so concurrent
// completions never pass the target on either database. Survey tickets are the one-time runner
// addresses handed to a game's SDK.
export function migration(dialect: Dialect) {
  const ts = bigInt(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await withId(db.schema.createTable('respondents'), dialect)
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('questionnaire_id', 'text', (c) => c.notNull())
        .addColumn('portrait_id', 'text')
        /** SHA-256 of the resume token the browser keeps; the token itself is never stored. */
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        /** link | sdk | demo */
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('game_id', 'integer', (c) => c.references('games.id').onDelete('set null'))
        .addColumn('player_id', 'text')
        .addColumn('gender', 'text')
        .addColumn('age', 'integer')
        .addColumn('city', 'text')
        .addColumn('region', 'text')
        .addColumn('education', 'text')
        .addColumn('platform', 'text')
        /** 1 started, 2 completed, 3 screened out (RESPONDENT_STATUS). */
        .addColumn('status', 'integer', (c) => c.notNull())
        /** JSON: the runner's position and the order each question's answers were shown in. */
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('locale', 'text')
        .addColumn('started_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addColumn('finished_at', ts)
        .execute();
      await db.schema
        .createIndex('respondents_project_status')
        .on('respondents')
        .columns(['project_id', 'status'])
        .execute();
      await db.schema
        .createIndex('respondents_project_portrait')
        .on('respondents')
        .columns(['project_id', 'portrait_id'])
        .execute();

      await withId(db.schema.createTable('respondent_answers'), dialect)
        .addColumn('respondent_id', 'integer', (c) =>
          c.notNull().references('respondents.id').onDelete('cascade'),
        )
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('question_id', 'text', (c) => c.notNull())
        /** The picked answer (choices, ranking, matrix column); null for values and open text. */
        .addColumn('answer_id', 'text')
        /** The matrix row. */
        .addColumn('statement_id', 'text')
        /** A number: fromTo, slider, nps, stars, or the rank of answer_id in a ranking. */
        .addColumn('value', real(dialect))
        /** Open text, the "other" answer's text, or the city/region picked. */
        .addColumn('text', 'text')
        .execute();
      await db.schema
        .createIndex('respondent_answers_report')
        .on('respondent_answers')
        .columns(['project_id', 'question_id', 'answer_id'])
        .execute();
      await db.schema
        .createIndex('respondent_answers_respondent')
        .on('respondent_answers')
        .columns(['respondent_id', 'question_id'])
        .execute();

      await db.schema
        .createTable('portrait_quotas')
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('portrait_id', 'text', (c) => c.notNull())
        .addColumn('target', 'integer', (c) => c.notNull())
        .addColumn('completed', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('portrait_quotas_pk', ['project_id', 'portrait_id'])
        .execute();

      await db.schema
        .createTable('survey_tickets')
        /** SHA-256 of the one-time token in the runner address. */
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('game_id', 'integer', (c) => c.references('games.id').onDelete('cascade'))
        .addColumn('portrait_id', 'text')
        /** JSON: the player (id, gender, age, city, education, platform). */
        .addColumn('player', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .addColumn('used_at', ts)
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const t of ['survey_tickets', 'portrait_quotas', 'respondent_answers', 'respondents'])
        await db.schema.dropTable(t).execute();
    },
  };
}
