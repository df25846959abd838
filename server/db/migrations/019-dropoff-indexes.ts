import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index';

// SQLite only: the drop-off's days and durations without a sort (docs/decisions/reports.md,
// "Drop-off and timing"). SQLite groups by sorting every row that passes the filters, and sorting
// 100 000 computed days or durations was most of the drop-off's cost. Each index below is ordered by
// the very expression the query groups by (SQLite matches an indexed expression in a query and walks
// the groups in order), and carries every filter column, so the filters are checked in the index
// without reading the rows. The durations and completion days are partial (completed respondents
// have an end), so a respondent enters those two once, when the survey ends for them; the start day's
// entry is written once with the respondent. An answer changes none of them.
// PostgreSQL aggregates with a hash and needs none of them.
const FILTERS = 'portrait_id, gender, education, age, city';

export function migration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'sqlite') return;
      await sql
        .raw(
          `create index respondents_start_day on respondents
          (project_id, started_at / 86400000, ${FILTERS})`,
        )
        .execute(db);
      await sql
        .raw(
          `create index respondents_duration on respondents
          (project_id, status, (finished_at - started_at) / 1000, ${FILTERS}) where finished_at is not null`,
        )
        .execute(db);
      await sql
        .raw(
          `create index respondents_end_day on respondents
          (project_id, status, finished_at / 86400000, ${FILTERS}) where finished_at is not null`,
        )
        .execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect !== 'sqlite') return;
      for (const name of ['respondents_start_day', 'respondents_duration', 'respondents_end_day'])
        await sql.raw(`drop index ${name}`).execute(db);
    },
  };
}
