import { sql } from 'kysely';
import type { Db } from '../db';
import { CITY_KEY, COUNTER_KEY, placeSql, SHARDS, type CounterQuestions } from './counters';

// The counters (counters.ts) of a set of respondents taken away or given back at once, in the
// transaction that excludes or restores them (issue 31): one grouped INSERT … SELECT per counters
// table over the respondents' answer rows, each row's delta added to its key (an upsert, in the key's
// order, the lock order every counter writer keeps). The same GROUP BY as the recount, over the few
// respondents named instead of the project's all, with the shard each respondent's rows went to.

/** The ids per statement (a list of parameters; well under either database's limit). */
const CHUNK = 1000;

function personDeltas(ids: number[], questions: CounterQuestions, sign: 1 | -1) {
  const person = sql`coalesce(r.portrait_id, '') as portrait_id, coalesce(r.gender, '') as gender,
    coalesce(r.education, '') as education, coalesce(r.age, -1) as age,
    case when r.age is null then r.id % ${sql.lit(SHARDS)} else 0 end as shard`;
  const inIds = sql`a.respondent_id in (${sql.join(ids)})`;
  const kind1 =
    questions.multiRow.length === 0
      ? sql``
      : sql`union all
        select a.question_id as question_id, 1 as kind, '' as answer_id, '' as statement_id,
          0 as has_value, 0 as value, '' as place, ${person}, ${sql.lit(sign)} * count(distinct a.respondent_id) as n
        from respondent_answers a join respondents r on r.id = a.respondent_id
        where ${inIds} and a.question_id in (${sql.join(questions.multiRow)})
        group by 1, 8, 9, 10, 11, 12`;
  return sql`select a.question_id as question_id, 0 as kind,
      coalesce(a.answer_id, '') as answer_id, coalesce(a.statement_id, '') as statement_id,
      case when a.value is null then 0 else 1 end as has_value, coalesce(a.value, 0) as value,
      ${placeSql(questions.places)} as place, ${person}, ${sql.lit(sign)} * count(*) as n
    from respondent_answers a join respondents r on r.id = a.respondent_id
    where ${inIds}
    group by 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
    ${kind1}`;
}

function cityDeltas(ids: number[], questions: CounterQuestions, sign: 1 | -1) {
  const who = sql`r.city as city, coalesce(r.portrait_id, '') as portrait_id, coalesce(r.gender, '') as gender,
    coalesce(r.education, '') as education, r.id % ${sql.lit(SHARDS)} as shard`;
  const inIds = sql`a.respondent_id in (${sql.join(ids)}) and r.city is not null`;
  const kind1 =
    questions.multiRow.length === 0
      ? sql``
      : sql`union all
        select a.question_id as question_id, 1 as kind, '' as answer_id, '' as statement_id,
          0 as has_value, 0 as value, '' as place, ${who}, ${sql.lit(sign)} * count(distinct a.respondent_id) as n
        from respondent_answers a join respondents r on r.id = a.respondent_id
        where ${inIds} and a.question_id in (${sql.join(questions.multiRow)})
        group by 1, 8, 9, 10, 11, 12`;
  return sql`select a.question_id as question_id, 0 as kind,
      coalesce(a.answer_id, '') as answer_id, coalesce(a.statement_id, '') as statement_id,
      case when a.value is null then 0 else 1 end as has_value, coalesce(a.value, 0) as value,
      ${placeSql(questions.places)} as place, ${who}, ${sql.lit(sign)} * count(*) as n
    from respondent_answers a join respondents r on r.id = a.respondent_id
    where ${inIds}
    group by 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
    ${kind1}`;
}

const refs = (cols: readonly string[]) => sql.join(cols.map((c) => sql.ref(c)));

/**
 * Takes (sign −1) or gives back (+1) the counters of these respondents' answer rows. Run it in the
 * transaction that changes their `excluded`, for exactly the respondents that change.
 */
export async function shiftCounters(
  db: Db,
  projectId: number,
  questions: CounterQuestions,
  ids: readonly number[],
  sign: 1 | -1,
): Promise<void> {
  const personCells = COUNTER_KEY.filter((c) => c !== 'project_id');
  const cityCells = CITY_KEY.filter((c) => c !== 'project_id');
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK) as number[];
    await sql`insert into report_counts (${refs(COUNTER_KEY)}, n)
      select cast(${projectId} as integer), ${refs(personCells.map((c) => `d.${c}`))}, d.n
      from (${personDeltas(chunk, questions, sign)}) d
      where d.n <> 0
      order by ${refs(personCells.map((c) => `d.${c}`))}
      on conflict (${refs(COUNTER_KEY)}) do update set n = report_counts.n + excluded.n`.execute(db);
    await sql`insert into report_city_counts (${refs(CITY_KEY)}, n)
      select cast(${projectId} as integer), ${refs(cityCells.map((c) => `d.${c}`))}, d.n
      from (${cityDeltas(chunk, questions, sign)}) d
      where d.n <> 0
      order by ${refs(cityCells.map((c) => `d.${c}`))}
      on conflict (${refs(CITY_KEY)}) do update set n = report_city_counts.n + excluded.n`.execute(db);
  }
}
