import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index';
import type { Db } from '../index';
import { projectsWithAnswers, real } from './helpers';
import { counterQuestions } from '../../reports/counters';
import { rebuildPersonCounters } from '../../reports/recount';

// The report's counters keyed by the respondent's gender, education and age too
// (docs/decisions/reports.md): with them a report filtered by any of those (and a portrait) sums
// counter rows like the unfiltered one, where it used to group every answer row of the filtered
// respondents (0.9 s on SQLite and 0.8 s on PostgreSQL at 100 000 respondents, over the 500 ms
// budget). The three are fixed when the respondent starts, so an answer's counts never move between
// keys. '' (gender, education) and -1 (age) stand for "not known". Only the city filter still
// groups answer rows: cities are too many to key by.
//
// SQLite cannot change a primary key, so the table is made anew and counted again from the answer
// rows, as 010 did. The respondents' covering index gains the same three columns, so their status,
// city and region counts under those filters still read the index alone.
//
// The key puts the cell before the person, and SQLite keeps the table in its key's b-tree (WITHOUT
// ROWID, so the count is in it too): a report sums its cells in the key's order, reading the
// project's rows once with no sort and no lookup (30 ms for 120 000 counter rows where a sort took
// 120 ms), and checks the filters on the way.
const KEY = [
  'project_id',
  'question_id',
  'kind',
  'answer_id',
  'statement_id',
  'has_value',
  'value',
  'place',
  'portrait_id',
  'gender',
  'education',
  'age',
  'shard',
];
/** 010's key, for down. */
const OLD_KEY = ['project_id', 'portrait_id', ...KEY.slice(1, 8), 'shard'];

/** The counters' table with this key (or 010's); n is the one other column. */
async function countsTable(db: Kysely<unknown>, dialect: Dialect, key: string[]) {
  let t = db.schema
    .createTable('report_counts')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'));
  for (const col of key.slice(1)) {
    const type =
      col === 'value'
        ? real(dialect)
        : ['kind', 'has_value', 'shard', 'age'].includes(col)
          ? 'integer'
          : 'text';
    t = t.addColumn(col, type, (c) => c.notNull());
  }
  t = t
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_counts_pk', key as never);
  await (key !== OLD_KEY && dialect === 'sqlite' ? t.modifyEnd(sql`without rowid`) : t).execute();
}

export function migration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.dropTable('report_counts').execute();
      await countsTable(db, dialect, KEY);
      await db.schema.dropIndex('respondents_report_cover').execute();
      await db.schema
        .createIndex('respondents_report_cover')
        .on('respondents')
        .columns(['project_id', 'status', 'city', 'region', 'portrait_id', 'gender', 'education', 'age'])
        .execute();

      for (const p of await projectsWithAnswers(db))
        await rebuildPersonCounters(
          db as unknown as Db,
          p.project_id,
          counterQuestions(JSON.parse(p.content)),
          { counted: false, language: false },
        );
    },
    async down(db: Kysely<unknown>) {
      // Back to 010's table, empty: 010's own code that counted it is gone (its up counts nothing).
      await db.schema.dropIndex('respondents_report_cover').execute();
      await db.schema
        .createIndex('respondents_report_cover')
        .on('respondents')
        .columns(['project_id', 'status', 'city', 'region', 'portrait_id'])
        .execute();
      await db.schema.dropTable('report_counts').execute();
      await countsTable(db, dialect, OLD_KEY);
    },
  };
}
