import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index';

// Found by the upgrade test (issue 33, part 6): 018 filled `last_question_id` of the respondents it
// found from their last answer. For one still in progress that is a question they answered, not the
// page shown to them now, which is what every later write records and what the funnel counts them
// at ("reached" = answered + shown now): such a respondent was counted twice at that question. The
// page they were shown next is the flow's decision and cannot be recovered from rows, so it becomes
// unknown. Only the rows 018 filled break the rule: a respondent in progress whose last question is
// one they answered; the runner never writes one.
export function migration(dialect: Dialect) {
  void dialect;
  return {
    async up(db: Kysely<unknown>) {
      await sql`update respondents set last_question_id = null
        where status = 1 and last_question_id is not null and exists (
          select 1 from respondent_answers a
          where a.respondent_id = respondents.id and a.question_id = respondents.last_question_id)`.execute(
        db,
      );
    },
    async down() {
      // Nothing to undo: the question cleared was not the one shown.
    },
  };
}
