import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db';
import { COUNTED } from '../responses/predicate';
import {
  CITY_KEY,
  COUNTER_KEY,
  TOTAL_KEY,
  type CounterPerson,
  type CounterQuestions,
  type Key,
} from './counters';

// The counters counted again from the answer rows (counters.ts keeps them as answers arrive): the
// rebuild of migrations 011, 013 and 024, the tests' recount to compare with, and the totals the
// tests and the bench compare it to.

/** The place key of a row in SQL: the text of a place question's rows, '' for every other row. */
export function placeSql(places: string[]) {
  return places.length === 0
    ? sql<string>`''`
    : sql<string>`case when a.question_id in (${sql.join(places)}) then coalesce(a.text, '') else '' end`;
}

/**
 * What the tables being counted have: `counted`, only the respondents every figure counts (020;
 * before it, in migrations 011 and 013, there were no others and no deltas tables); `language`, the
 * language key column (024). Today's tables have both.
 */
export interface CounterLevel {
  counted: boolean;
  language: boolean;
}
const TODAY: CounterLevel = { counted: true, language: true };

/**
 * The counters of a project counted again from its answer rows (one GROUP BY), in the table's key.
 * Grouped by position: PostgreSQL would not see the place expression's parameters in GROUP BY as
 * the same expression as in the select list.
 */
function recountQuery(projectId: number, questions: CounterQuestions, level: CounterLevel) {
  const only = level.counted ? sql` and r.excluded = ${COUNTED}` : sql``;
  const person = sql`coalesce(r.portrait_id, '') as portrait_id, coalesce(r.gender, '') as gender,
    coalesce(r.education, '') as education, coalesce(r.age, -1) as age`;
  return grouped(projectId, questions, person, 4, level, only);
}

/**
 * The answer rows' counts by (who, cell): `who` is `width` columns of the respondent, then the
 * language when the level has it.
 */
function grouped(
  projectId: number,
  questions: CounterQuestions,
  person: RawBuilder<unknown>,
  width: number,
  level: CounterLevel,
  only: RawBuilder<unknown>,
) {
  const who = level.language ? sql`${person}, coalesce(r.language, '') as language` : person;
  const n = width + (level.language ? 1 : 0);
  const by = (count: number) => sql.raw(Array.from({ length: count }, (_, i) => i + 1).join(', '));
  const kind1 =
    questions.multiRow.length === 0
      ? sql``
      : sql`union all
        select ${who}, a.question_id as question_id, 1 as kind,
          '' as answer_id, '' as statement_id, 0 as has_value, 0 as value, '' as place,
          count(distinct a.respondent_id) as n
        from respondent_answers a join respondents r on r.id = a.respondent_id
        where a.project_id = ${projectId} and a.question_id in (${sql.join(questions.multiRow)})${only}
        group by ${by(n + 1)}`;
  // The cell's columns after the person's: question (n + 1), answer, statement, has_value, value, place.
  const cell = sql.raw([1, 3, 4, 5, 6, 7].map((i) => n + i).join(', '));
  return sql<RecountRow>`
    select ${who}, a.question_id as question_id, 0 as kind,
      coalesce(a.answer_id, '') as answer_id, coalesce(a.statement_id, '') as statement_id,
      case when a.value is null then 0 else 1 end as has_value, coalesce(a.value, 0) as value,
      ${placeSql(questions.places)} as place, count(*) as n
    from respondent_answers a join respondents r on r.id = a.respondent_id
    where a.project_id = ${projectId}${only}
    group by ${by(n)}, ${cell}
    ${kind1}`;
}

/**
 * The per-city counters of a project counted again from its answer rows, in their table's key
 * without the shard (the respondents whose city is known).
 */
function cityRecountQuery(projectId: number, questions: CounterQuestions, level: CounterLevel) {
  const only = level.counted
    ? sql` and r.city is not null and r.excluded = ${COUNTED}`
    : sql` and r.city is not null`;
  const who = sql`r.city as city, coalesce(r.portrait_id, '') as portrait_id,
    coalesce(r.gender, '') as gender, coalesce(r.education, '') as education`;
  return grouped(projectId, questions, who, 4, level, only) as RawBuilder<RecountRow & { city: string }>;
}

/**
 * One row of either counters table, summed over shards. `city` is null for report_counts (every
 * city), a city for report_city_counts, whose rows have no age (-1).
 */
export interface RecountRow extends Key, CounterPerson {
  city?: string | null;
  n: number;
}

/** What both counters tables should hold, counted from the answer rows (tests compare the two). */
export async function recount(db: Db, projectId: number, questions: CounterQuestions): Promise<RecountRow[]> {
  const { rows } = await recountQuery(projectId, questions, TODAY).execute(db);
  const { rows: cities } = await cityRecountQuery(projectId, questions, TODAY).execute(db);
  return [...rows.map((r) => normalizeRow(r)), ...cities.map((r) => normalizeRow(asCityRow(r)))];
}

const asCityRow = (r: Omit<RecountRow, 'age'>): RecountRow => ({ ...r, age: -1 });

/** Replaces a project's counters (both tables) by a count of its answer rows. */
export async function rebuildCounters(db: Db, projectId: number, questions: CounterQuestions): Promise<void> {
  await rebuildPersonCounters(db, projectId, questions);
  await rebuildCityCounters(db, projectId, questions);
}

/** The key columns of a level's table (without the language before 024). */
const keyAt = (key: readonly string[], level: CounterLevel) =>
  level.language ? key : key.filter((c) => c !== 'language');

/**
 * Replaces a project's report_counts by a count of its answer rows (the migrations too, with the
 * tables of their level: `level`).
 */
export async function rebuildPersonCounters(
  db: Db,
  projectId: number,
  questions: CounterQuestions,
  level: CounterLevel = TODAY,
): Promise<void> {
  await db.deleteFrom('report_counts').where('project_id', '=', projectId).execute();
  // Deltas (020) are part of the counters; migration 011 ran before they existed.
  if (level.counted) await db.deleteFrom('report_count_deltas').where('project_id', '=', projectId).execute();
  const key = keyAt(COUNTER_KEY, level);
  const values = key.map((c) =>
    c === 'project_id' ? sql`cast(${projectId} as integer)` : c === 'shard' ? sql`0` : sql.ref(`c.${c}`),
  );
  await sql`insert into report_counts (${sql.join(key.map((c) => sql.ref(c)))}, n)
    select ${sql.join(values)}, c.n
    from (${recountQuery(projectId, questions, level)}) c`.execute(db);
}

/** Replaces a project's per-city counters by a count of its answer rows (the migrations too: `level`). */
export async function rebuildCityCounters(
  db: Db,
  projectId: number,
  questions: CounterQuestions,
  level: CounterLevel = TODAY,
): Promise<void> {
  await db.deleteFrom('report_city_counts').where('project_id', '=', projectId).execute();
  if (level.counted)
    await db.deleteFrom('report_city_count_deltas').where('project_id', '=', projectId).execute();
  const key = keyAt(CITY_KEY, level);
  const values = key.map((c) =>
    c === 'project_id' ? sql`cast(${projectId} as integer)` : c === 'shard' ? sql`0` : sql.ref(`c.${c}`),
  );
  await sql`insert into report_city_counts (${sql.join(key.map((c) => sql.ref(c)))}, n)
    select ${sql.join(values)}, c.n
    from (${cityRecountQuery(projectId, questions, level)}) c`.execute(db);
}

function normalizeRow(r: RecountRow): RecountRow {
  return {
    city: r.city ?? null,
    portrait_id: r.portrait_id,
    gender: r.gender,
    education: r.education,
    age: Number(r.age),
    language: r.language,
    question_id: r.question_id,
    kind: Number(r.kind),
    answer_id: r.answer_id,
    statement_id: r.statement_id,
    has_value: Number(r.has_value),
    value: Number(r.value),
    place: r.place,
    n: Number(r.n),
  };
}

/**
 * Both counters tables summed over their shards, with their deltas not folded yet (counter-shift.ts),
 * in recount's shape, without the keys that sum to 0.
 */
export async function counterTotals(db: Db, projectId: number): Promise<RecountRow[]> {
  const total = async (tables: [string, string], key: readonly string[]) => {
    const cols = sql.join(key.map((c) => sql.ref(c)));
    const { rows } = await sql<RecountRow>`select ${cols}, sum(n) as n from (
        select ${cols}, n from ${sql.table(tables[0])} where project_id = ${projectId}
        union all
        select ${cols}, n from ${sql.table(tables[1])} where project_id = ${projectId}) u
      group by ${cols}`.execute(db);
    return rows;
  };
  const cityKey = CITY_KEY.filter((c) => c !== 'project_id' && c !== 'shard');
  const rows = await total(['report_counts', 'report_count_deltas'], TOTAL_KEY);
  const cities = await total(['report_city_counts', 'report_city_count_deltas'], cityKey);
  return [...rows.map((r) => normalizeRow(r)), ...cities.map((r) => normalizeRow(asCityRow(r)))].filter(
    (r) => r.n !== 0,
  );
}
