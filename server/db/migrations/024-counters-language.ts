import { sql, type Kysely } from 'kysely';
import type { Db, Dialect } from '../index';
import { projectsWithAnswers, real } from './helpers';
import { counterQuestions } from '../../reports/counters';
import { rebuildCityCounters, rebuildPersonCounters, type CounterLevel } from '../../reports/recount';

// The report's counters keyed by the respondent's questionnaire language too (issue 32, part 5;
// docs/decisions/languages.md): a report filtered by language sums counter rows like the other
// filters, where it grouped every answer row of the language's respondents (3.3 s on SQLite at
// 100 000 respondents, over the 500 ms budget). A filter without a language sums over languages.
//
// The language is the one key that moves while a respondent answers (the language of their last
// page counts): the answer that changes it moves every counted row of theirs from the old language
// to the new one in its own transaction (server/reports/counters.ts, languageMoveCounts).
//
// SQLite cannot change a primary key, so both counters tables are made anew with the extra column
// (last before the shard, so a report still reads a project's cells in key order), and so are the
// deltas tables of 020; then every project is counted again from its answer rows, which the counters
// plus their deltas always equal (the deltas are folded into the new counters that way).
// '' stands for "not known" (a null language, which no language filter selects).
const CELL = ['question_id', 'kind', 'answer_id', 'statement_id', 'has_value', 'value', 'place'];
const PERSON = ['project_id', ...CELL, 'portrait_id', 'gender', 'education', 'age'];
const CITY = ['project_id', 'city', ...CELL, 'portrait_id', 'gender', 'education'];

const INTEGERS = ['kind', 'has_value', 'shard', 'age'];

/**
 * One of the four tables with these key columns: the counters with a primary key and their project
 * as a foreign key; the deltas with neither. An exclusion of 10 000 respondents appends some 175 000
 * delta rows in the user's request, and checking each one against `projects` was a fifth of its time
 * on PostgreSQL; deleting a project deletes its deltas itself (server/routes/projects.ts), in the
 * transaction that deletes the project.
 */
async function table(
  db: Kysely<unknown>,
  dialect: Dialect,
  name: string,
  columns: string[],
  primaryKey: boolean,
): Promise<void> {
  let t = db.schema
    .createTable(name)
    .addColumn('project_id', 'integer', (c) =>
      primaryKey ? c.notNull().references('projects.id').onDelete('cascade') : c.notNull(),
    );
  for (const col of columns.slice(1)) {
    const type = col === 'value' ? real(dialect) : INTEGERS.includes(col) ? 'integer' : 'text';
    t = t.addColumn(col, type, (c) => c.notNull());
  }
  t = t.addColumn('n', 'integer', (c) => c.notNull());
  if (!primaryKey) {
    await t.execute();
    // Folded a question at a time (020).
    await db.schema.createIndex(`${name}_question`).on(name).columns(['project_id', 'question_id']).execute();
    return;
  }
  t = t.addPrimaryKeyConstraint(`${name}_pk`, columns as never);
  // The rows in the key's b-tree (011): a project's cells read in order with no lookup.
  await (dialect === 'sqlite' ? t.modifyEnd(sql`without rowid`) : t).execute();
}

/** Makes the four tables with or without the language and counts every project into them. */
async function remake(db: Kysely<unknown>, dialect: Dialect, level: CounterLevel): Promise<void> {
  const withLanguage = (key: string[]) => (level.language ? [...key, 'language'] : key);
  for (const name of [
    'report_counts',
    'report_count_deltas',
    'report_city_counts',
    'report_city_count_deltas',
  ])
    await db.schema.dropTable(name).execute();
  await table(db, dialect, 'report_counts', [...withLanguage(PERSON), 'shard'], true);
  await table(db, dialect, 'report_count_deltas', [...withLanguage(PERSON), 'shard'], false);
  await table(db, dialect, 'report_city_counts', [...withLanguage(CITY), 'shard'], true);
  await table(db, dialect, 'report_city_count_deltas', [...withLanguage(CITY), 'shard'], false);
  for (const p of await projectsWithAnswers(db)) {
    const questions = counterQuestions(JSON.parse(p.content));
    await rebuildPersonCounters(db as unknown as Db, p.project_id, questions, level);
    await rebuildCityCounters(db as unknown as Db, p.project_id, questions, level);
  }
}

export function migration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>) {
      await remake(db, dialect, { counted: true, language: true });
    },
    async down(db: Kysely<unknown>) {
      // Back to 020's tables (011's and 013's keys), counted again: the language filter then groups
      // the answer rows again, as it did.
      await remake(db, dialect, { counted: true, language: false });
    },
  };
}
