import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index';
import type { Db } from '../index';
import { projectsWithAnswers, real } from './helpers';
import { counterQuestions } from '../../reports/counters';
import { rebuildCityCounters } from '../../reports/recount';

// The report's counters per city (docs/decisions/reports.md): a report filtered by a city (with or
// without a portrait, gender or education) sums these rows as the other filters sum report_counts
// (011), where it used to group the answer rows of the city's respondents. That was 740 ms on SQLite
// and about 1 s on PostgreSQL at 100 000 respondents for a city with 41 % of them, over the 500 ms
// budget. Cities are too many to multiply 011's key by (with some 60 ages as well it would be about
// one key per respondent), so they get a table of their own: per city, the cells, by portrait,
// gender and education, spread over shards so the many respondents of one big city seldom wait for
// one row lock on PostgreSQL. A city filtered together with an age range still groups the answer
// rows.
//
// The city is fixed when the respondent starts, like 011's keys. Respondents with no city have no
// rows here (no city filter selects them).
const KEY = [
  'project_id',
  'city',
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
  'shard',
];

export function migration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>) {
      let t = db.schema
        .createTable('report_city_counts')
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'));
      for (const col of KEY.slice(1)) {
        const type =
          col === 'value' ? real(dialect) : ['kind', 'has_value', 'shard'].includes(col) ? 'integer' : 'text';
        t = t.addColumn(col, type, (c) => c.notNull());
      }
      t = t
        .addColumn('n', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('report_city_counts_pk', KEY as never);
      // As 011's: the rows in the key's b-tree, so a city's cells are read in order with no lookup.
      await (dialect === 'sqlite' ? t.modifyEnd(sql`without rowid`) : t).execute();

      for (const p of await projectsWithAnswers(db))
        await rebuildCityCounters(
          db as unknown as Db,
          p.project_id,
          counterQuestions(JSON.parse(p.content)),
          { counted: false, language: false },
        );
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('report_city_counts').execute();
    },
  };
}
