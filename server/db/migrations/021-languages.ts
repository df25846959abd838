import type { Kysely } from 'kysely';
import type { Dialect } from '../index';

// A questionnaire in several languages (issue 32; docs/decisions/languages.md).
//
// - `respondents.language`: the questionnaire language the respondent answered in (the language of
//   their last page: a respondent who switches in the middle counts in the language they finished
//   in). Beside `locale`, which stays the page's interface language (ru or en). Rows written before
//   stay null: every questionnaire then had one language, its source, and the readers (the report's
//   filter and column, the downloads' LANGUAGE) read null as the project's source language, so no
//   row is rewritten here.
// - `survey_tickets.locale`: the game SDK's `locale` for the player, as it asked (a BCP 47 tag), the
//   first wish of the runner's language when the player opens the ticket.
export function migration(dialect: Dialect) {
  void dialect;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('respondents').addColumn('language', 'text').execute();
      await db.schema.alterTable('survey_tickets').addColumn('locale', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('survey_tickets').dropColumn('locale').execute();
      await db.schema.alterTable('respondents').dropColumn('language').execute();
    },
  };
}
