import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index';
import { bigInt } from './helpers';

// Issue 31: respondents one by one (docs/decisions/responses.md).
// - Exclusion: `excluded` (0/1) is the one predicate every figure reads (the counters are adjusted
//   in the exclusion's transaction; the GROUP BYs, the funnel, the timing, the Compare tables and the
//   downloads check it); `exclusion` keeps the reason, the author, the time and whether the
//   respondent's portrait place was freed (JSON). `erased_at`: the person asked to be erased; the
//   row stays, anonymous, excluded, so that totals can be explained.
// - Quality flags: `flags` is a bit set (speeder 1, straight-liner 2, gibberish 4, duplicate 8) so
//   the list and the quality card filter and count without parsing; `flag_params` keeps what each
//   flag found (JSON). The speeder rule's median and threshold are the project's (project_quality).
// - The browser marker of a direct link, as a SHA-256 hash only (duplicates).
// - Page times live in the respondent's state (JSON, beside the replies): no column.
// The covering indexes the report reads (010/011, 018, 019) are made again with `excluded` in them,
// so the figures still read the indexes alone; the predicate is checked in their entries.
const FILTERS = 'portrait_id, gender, education, age, city';

export function migration(dialect: Dialect) {
  const ts = bigInt(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('respondents')
        .addColumn('excluded', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('respondents').addColumn('exclusion', 'text').execute();
      await db.schema.alterTable('respondents').addColumn('erased_at', ts).execute();
      await db.schema
        .alterTable('respondents')
        .addColumn('flags', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('respondents').addColumn('flag_params', 'text').execute();
      await db.schema.alterTable('respondents').addColumn('browser_hash', 'text').execute();

      await db.schema
        .createTable('project_quality')
        .addColumn('project_id', 'integer', (c) =>
          c.primaryKey().references('projects.id').onDelete('cascade'),
        )
        /** Completions seen since the median was taken (decides when to take it again). */
        .addColumn('completed', 'integer', (c) => c.notNull().defaultTo(0))
        /** Completed respondents the median was taken over. */
        .addColumn('median_of', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('median_ms', ts)
        /** Completed faster than this is a speeder; null below SPEEDER_MIN_COMPLETED. */
        .addColumn('threshold_ms', ts)
        .addColumn('percent', 'integer', (c) => c.notNull().defaultTo(50))
        /** 0: respondents completed before 020 are not judged yet (server/responses/backfill.ts). */
        .addColumn('judged', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      // Projects with completions from before: their respondents get their flags on the first read.
      await sql`insert into project_quality (project_id, completed, median_of, percent, judged, updated_at)
        select distinct project_id, 0, 0, 50, 0, 0 from respondents where status = 2`.execute(db);

      // The report's covering indexes again, with the predicate's column.
      await db.schema.dropIndex('respondents_report_cover').execute();
      await db.schema
        .createIndex('respondents_report_cover')
        .on('respondents')
        .columns([
          'project_id',
          'status',
          'city',
          'region',
          'portrait_id',
          'gender',
          'education',
          'age',
          'excluded',
        ])
        .execute();
      await db.schema.dropIndex('respondents_analysis').execute();
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
          'excluded',
        ])
        .execute();
      if (dialect === 'sqlite') {
        for (const name of ['respondents_start_day', 'respondents_duration', 'respondents_end_day'])
          await sql.raw(`drop index ${name}`).execute(db);
        await sql
          .raw(
            `create index respondents_start_day on respondents
            (project_id, started_at / 86400000, ${FILTERS}, excluded)`,
          )
          .execute(db);
        await sql
          .raw(
            `create index respondents_duration on respondents
            (project_id, status, (finished_at - started_at) / 1000, ${FILTERS}, excluded)
            where finished_at is not null`,
          )
          .execute(db);
        await sql
          .raw(
            `create index respondents_end_day on respondents
            (project_id, status, finished_at / 86400000, ${FILTERS}, excluded) where finished_at is not null`,
          )
          .execute(db);
      }
      // The excluded respondents of a project: the answer rows' side of the predicate (NOT IN them).
      await sql`create index respondents_excluded on respondents (project_id, id) where excluded = 1`.execute(
        db,
      );
      // The list, newest first, and its flag filter.
      await sql`create index respondents_list on respondents (project_id, started_at, id)`.execute(db);
      await sql`create index respondents_flagged on respondents (project_id, flags) where flags <> 0`.execute(
        db,
      );
      // Duplicates through a direct link: the same browser's earlier completions of the project.
      await sql`create index respondents_browser on respondents (project_id, browser_hash)
        where browser_hash is not null`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      for (const name of [
        'respondents_browser',
        'respondents_flagged',
        'respondents_list',
        'respondents_excluded',
      ])
        await sql.raw(`drop index ${name}`).execute(db);
      if (dialect === 'sqlite') {
        for (const name of ['respondents_start_day', 'respondents_duration', 'respondents_end_day'])
          await sql.raw(`drop index ${name}`).execute(db);
        await sql
          .raw(
            `create index respondents_start_day on respondents (project_id, started_at / 86400000, ${FILTERS})`,
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
      }
      await db.schema.dropIndex('respondents_analysis').execute();
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
      await db.schema.dropIndex('respondents_report_cover').execute();
      await db.schema
        .createIndex('respondents_report_cover')
        .on('respondents')
        .columns(['project_id', 'status', 'city', 'region', 'portrait_id', 'gender', 'education', 'age'])
        .execute();
      await db.schema.dropTable('project_quality').execute();
      for (const col of ['browser_hash', 'flag_params', 'flags', 'erased_at', 'exclusion', 'excluded'])
        await db.schema.alterTable('respondents').dropColumn(col).execute();
    },
  };
}
