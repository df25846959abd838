import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index';

// The drop-off funnel (docs/decisions/reports.md, "Drop-off and timing"): where each respondent is
// in the questionnaire, kept on the respondent's row by every answer (server/survey/respond.ts) in
// the answer's own write: the question of the page shown now, or, once the survey has ended for
// them, the last one they answered. A respondent who never completed "left" at that question.
// Answer rows alone cannot say it: the page shown after the last answer is the flow's decision.
//
// One covering index serves the funnel, the timing and the timeline: every filter (portrait,
// gender, education, age, city) is checked in it, so the three GROUP BYs read the index alone and
// never the rows (whose state JSON is most of the table). An answer moves its respondent's entry
// (the question changes), one index write more per answer.
//
// Respondents recorded before this migration get the question of their last answer row: exact for
// those who finished; those still in progress count as leaving at their last answered question
// rather than at the page after it.
export function migration(dialect: Dialect) {
  void dialect;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('respondents').addColumn('last_question_id', 'text').execute();
      await sql`update respondents set last_question_id = (
          select a.question_id from respondent_answers a
          where a.respondent_id = respondents.id order by a.id desc limit 1)`.execute(db);
      await db.schema
        .createIndex('respondents_analysis')
        .on('respondents')
        .columns([
          'project_id',
          'status',
          'last_question_id',
          'started_at',
          'finished_at',
          'portrait_id',
          'gender',
          'education',
          'age',
          'city',
        ])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('respondents_analysis').execute();
      await db.schema.alterTable('respondents').dropColumn('last_question_id').execute();
    },
  };
}
