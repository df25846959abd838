import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index';

// The report's respondent indexes with the questionnaire language (issue 32's filter), and the
// project's completes in the order they are grouped (docs/decisions/reports.md, "Fixed costs").
//
// - SQLite read the language from every row: the report's respondent counts walked the covering
//   index of 020 and looked each of the project's 100 000 respondents up in the table for it, and the
//   drop-off checked each index entry against an ephemeral list of the language's 25 000 ids, made
//   four times (754 ms for English at 100 000 respondents, over the 500 ms budget). With `language`
//   last in each index the filter is checked in the entries, like the other filters.
// - The completes by portrait (field progress and price, the whole project's, whatever the filters)
//   were grouped by sorting every completed respondent on SQLite (about 500 ms of a loaded
//   machine's report) and from the table on PostgreSQL; a partial index of the completed ones
//   ordered by portrait and exclusion gives the groups in order from the index alone.
const FILTERS = 'portrait_id, gender, education, age, city';
const COVER = ['project_id', 'status', 'city', 'region', 'portrait_id', 'gender', 'education', 'age'];
const ANALYSIS = [
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
];

async function reportIndexes(db: Kysely<unknown>, dialect: Dialect, language: boolean) {
  const tail = language ? ['excluded', 'language'] : ['excluded'];
  const lang = language ? ', language' : '';
  await db.schema.dropIndex('respondents_report_cover').execute();
  await db.schema
    .createIndex('respondents_report_cover')
    .on('respondents')
    .columns([...COVER, ...tail])
    .execute();
  await db.schema.dropIndex('respondents_analysis').execute();
  await db.schema
    .createIndex('respondents_analysis')
    .on('respondents')
    .columns([...ANALYSIS, ...tail])
    .execute();
  if (dialect !== 'sqlite') return;
  for (const name of ['respondents_start_day', 'respondents_duration', 'respondents_end_day'])
    await sql.raw(`drop index ${name}`).execute(db);
  await sql
    .raw(
      `create index respondents_start_day on respondents
      (project_id, started_at / 86400000, ${FILTERS}, excluded${lang})`,
    )
    .execute(db);
  await sql
    .raw(
      `create index respondents_duration on respondents
      (project_id, status, (finished_at - started_at) / 1000, ${FILTERS}, excluded${lang})
      where finished_at is not null`,
    )
    .execute(db);
  await sql
    .raw(
      `create index respondents_end_day on respondents
      (project_id, status, finished_at / 86400000, ${FILTERS}, excluded${lang})
      where finished_at is not null`,
    )
    .execute(db);
}

export function migration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>) {
      await reportIndexes(db, dialect, true);
      // status 2: completed (RESPONDENT_STATUS.completed), a literal the query repeats.
      await sql`create index respondents_completes on respondents
        (project_id, portrait_id, excluded, finished_at) where status = 2`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`drop index respondents_completes`.execute(db);
      await reportIndexes(db, dialect, false);
    },
  };
}
