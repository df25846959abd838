import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index';

// A questionnaire in several languages (issue 32; docs/decisions/languages.md).
//
// - `respondents.language`: the questionnaire language the respondent answered in (the language of
//   their last page: a respondent who switches in the middle counts in the language they finished
//   in). Beside `locale`, which stays the page's interface language (ru or en). Every respondent
//   written before answered a questionnaire with one language, Russian (content without `languages`
//   reads as ['ru']), so they are set to 'ru' here once: the report's filter and Compare column and
//   the downloads' LANGUAGE then compare plain values. (A row a reader still finds null is read as
//   the source language.)
// - `survey_tickets.locale`: the game SDK's `locale` for the player, as it asked (a BCP 47 tag), the
//   first wish of the runner's language when the player opens the ticket.
export function migration(dialect: Dialect) {
  void dialect;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('respondents').addColumn('language', 'text').execute();
      await sql`update respondents set language = 'ru' where language is null`.execute(db);
      // The report's language filter: the ids of a language's respondents from the index alone (the
      // row id is in every SQLite index entry), and their count. Not written by answers (the
      // language moves only on a switch), so the answer path pays nothing for it.
      await db.schema
        .createIndex('respondents_language')
        .on('respondents')
        .columns(['project_id', 'language'])
        .execute();
      await db.schema.alterTable('survey_tickets').addColumn('locale', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('respondents_language').execute();
      await db.schema.alterTable('survey_tickets').dropColumn('locale').execute();
      await db.schema.alterTable('respondents').dropColumn('language').execute();
    },
  };
}
