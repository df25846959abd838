import { CompiledQuery, sql } from 'kysely';
import type { Db } from '../db';
import type { ProjectContent, Question } from '../../src/domain/content/model';
import { replyRows, type AnswerRow, type ReplyEntry } from '../../src/domain/flow';
import { MULTI_ROW, PLACE_CATEGORIES } from './shape';

// The report's counters (migration 010-report-counters explains the table): kept in the answer's
// own transaction, so the report without filters (or with only a portrait) reads a few thousand
// counter rows instead of grouping every answer row. Three writers keep them right:
// - replyCounts: every answered page (server/survey/respond.ts), one upsert per page that adds
//   the new reply's rows and takes away the rows of the replies it replaces (a page answered again
//   going Back drops the pages after it). Those are known from the respondent's stored state, which
//   the same write checks has not changed, so no row is read. PostgreSQL upserts them in the
//   answer's one statement (server/repos/respondents.ts), SQLite in its transaction
//   (countReplyRowsSqlite);
// - countSampleRows: the bulk insert of tests and benchmarks (server/reports/sample.ts);
// - rebuildCounters (recount.ts): counts a project again from its answer rows (the migrations, tests).
// A status change (quotaFull turning a completed respondent screened out) changes no counter: the
// counters are keyed by portrait and the respondent's gender, education and age (011), all fixed
// when the respondent starts, and statuses are counted from the respondents table. The fifth key,
// the respondent's questionnaire language (024), moves when they answer a page in another language:
// that answer moves every counted row of theirs to the new language (languageMoveCounts).
// Every writer keeps the per-city counters (013, report_city_counts) beside them, from the same
// deltas: the respondent's city (fixed at the start too) instead of gender, education and age.

/** What a counter counts: a cell of a question (the key a report sums by, whoever answered). */
export const CELL_KEY = [
  'question_id',
  'kind',
  'answer_id',
  'statement_id',
  'has_value',
  'value',
  'place',
] as const;

/** The counters' unique key (the table's upsert target); the migrations keep their own copies. */
export const COUNTER_KEY = [
  'project_id',
  ...CELL_KEY,
  'portrait_id',
  'gender',
  'education',
  'age',
  'language',
  'shard',
] as const;
/** The key a project's totals are summed by: without the project (fixed) and the shard (summed). */
export const TOTAL_KEY = COUNTER_KEY.filter((c) => c !== 'project_id' && c !== 'shard') as Exclude<
  (typeof COUNTER_KEY)[number],
  'project_id' | 'shard'
>[];

/**
 * Counter rows per key for respondents whose age is not known (a direct link without a profile, a
 * game that sends only the gender), so concurrent ones on PostgreSQL seldom wait for one row lock.
 * People of known age spread over some 60 ages × the gender and education keys already; sharding
 * them too would multiply the rows a report sums by 8.
 */
export const SHARDS = 8;

/** Who a respondent is, as the counters key them ('' and -1: not known). */
export interface CounterPerson {
  portrait_id: string;
  gender: string;
  education: string;
  age: number;
  /** The questionnaire language ('' not known: a null, which no language filter selects). */
  language: string;
}

/** The respondent's columns the counters key by. */
interface PersonColumns {
  portrait_id: string | null;
  gender: string | null;
  education: string | null;
  age: number | null;
  language: string | null;
}

export function counterPerson(r: PersonColumns): CounterPerson {
  return {
    portrait_id: r.portrait_id ?? '',
    gender: r.gender ?? '',
    education: r.education ?? '',
    age: r.age ?? -1,
    language: r.language ?? '',
  };
}

/** Where a respondent's rows go in the per-city counters ('' : nowhere, the city is not known). */
interface CityPlace {
  city: string;
  city_shard: number;
}
const cityPlace = (id: number, city: string | null): CityPlace => ({
  city: city ?? '',
  city_shard: id % SHARDS,
});

function shardOf(id: number, who: CounterPerson): number {
  return who.age === -1 ? id % SHARDS : 0;
}

/** Which questions key their counters by the place picked, and which count respondents (kind 1). */
export interface CounterQuestions {
  places: string[];
  multiRow: string[];
}

/** From the content, parsed or as stored (the migration reads the raw JSON). */
export function counterQuestions(content: unknown): CounterQuestions {
  const out: CounterQuestions = { places: [], multiRow: [] };
  const qns = (content as Partial<ProjectContent> | null)?.questionnaires ?? [];
  for (const qn of qns)
    for (const b of qn?.blocks ?? [])
      for (const q of b?.questions ?? []) {
        if (PLACE_CATEGORIES.includes(q.category)) out.places.push(q.id);
        if (MULTI_ROW.includes(q.category)) out.multiRow.push(q.id);
      }
  return out;
}

type Executor = Pick<Db, 'insertInto'>;

/** One counter's key without the project, the person and the shard (the same for a respondent's upsert). */
export interface Key {
  question_id: string;
  kind: number;
  answer_id: string;
  statement_id: string;
  has_value: number;
  value: number;
  place: string;
}

/** Deltas by key; the string key also gives the fixed order every upsert takes its row locks in. */
type Deltas = Map<string, { key: Key; n: number }>;

function add(deltas: Deltas, key: Key, n: number) {
  const k = [
    key.question_id,
    key.kind,
    key.answer_id,
    key.statement_id,
    key.has_value,
    key.value,
    key.place,
  ].join('\u0001');
  const d = deltas.get(k);
  if (d) d.n += n;
  else deltas.set(k, { key, n });
}

/** Adds (sign 1) or takes away (sign -1) one reply's rows. */
function addRows(
  deltas: Deltas,
  rows: readonly Omit<AnswerRow, 'question_id'>[],
  questionId: string,
  kinds: { place: boolean; multiRow: boolean },
  sign: number,
) {
  for (const r of rows)
    add(
      deltas,
      {
        question_id: questionId,
        kind: 0,
        answer_id: r.answer_id ?? '',
        statement_id: r.statement_id ?? '',
        has_value: r.value === null ? 0 : 1,
        value: r.value ?? 0,
        place: kinds.place ? (r.text ?? '') : '',
      },
      sign,
    );
  if (kinds.multiRow && rows.length > 0)
    add(
      deltas,
      {
        question_id: questionId,
        kind: 1,
        answer_id: '',
        statement_id: '',
        has_value: 0,
        value: 0,
        place: '',
      },
      sign,
    );
}

const kindsOf = (q: Pick<Question, 'category'>) => ({
  place: PLACE_CATEGORIES.includes(q.category),
  multiRow: MULTI_ROW.includes(q.category),
});

async function upsertRows(db: Executor, rows: Omit<CounterRow, keyof CityPlace>[]): Promise<void> {
  // 15 parameters a row: well under either database's limit per statement.
  for (let i = 0; i < rows.length; i += 1000)
    await db
      .insertInto('report_counts')
      .values(rows.slice(i, i + 1000).map((r) => pick(r, COUNTER_COLUMNS)))
      .onConflict((oc) => oc.columns([...COUNTER_KEY]).doUpdateSet({ n: sql`report_counts.n + excluded.n` }))
      .execute();
}

/** The per-city counters' unique key (013). */
export const CITY_KEY = [
  'project_id',
  'city',
  ...CELL_KEY,
  'portrait_id',
  'gender',
  'education',
  'language',
  'shard',
] as const;
const CITY_COLUMNS = [...CITY_KEY, 'n'] as const;
export const CITY_KEY_SQL = CITY_KEY.join(', ');
type CityCounterRow = Record<(typeof CITY_COLUMNS)[number], string | number>;

/** The per-city rows of counter rows: those of respondents whose city is known. */
function cityRows(rows: readonly CounterRow[]): CityCounterRow[] {
  const out: CityCounterRow[] = [];
  for (const r of rows)
    if (r.city !== '')
      out.push({
        project_id: r.project_id,
        city: r.city,
        question_id: r.question_id,
        kind: r.kind,
        answer_id: r.answer_id,
        statement_id: r.statement_id,
        has_value: r.has_value,
        value: r.value,
        place: r.place,
        portrait_id: r.portrait_id,
        gender: r.gender,
        education: r.education,
        language: r.language,
        shard: r.city_shard,
        n: r.n,
      });
  return out;
}

async function upsertCityRows(db: Executor, rows: CityCounterRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000)
    await db
      .insertInto('report_city_counts')
      .values(rows.slice(i, i + 1000) as never)
      .onConflict((oc) =>
        oc.columns([...CITY_KEY]).doUpdateSet({ n: sql`report_city_counts.n + excluded.n` }),
      )
      .execute();
}

function pick<T extends object, K extends keyof T>(o: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) out[k] = o[k];
  return out;
}

/** The upsert target as SQL (PostgreSQL's answer statement counts with it in a CTE). */
export const COUNTER_KEY_SQL = COUNTER_KEY.join(', ');

const questionMaps = new WeakMap<ProjectContent, Map<string, Question>>();
function questionById(content: ProjectContent): Map<string, Question> {
  let map = questionMaps.get(content);
  if (!map) {
    map = new Map();
    for (const qn of content.questionnaires)
      for (const b of qn.blocks) for (const q of b.questions) map.set(q.id, q);
    questionMaps.set(content, map);
  }
  return map;
}

/** One counter row to add to (n below 0 takes away), and where it goes in the per-city counters. */
export type CounterRow = Key & CounterPerson & CityPlace & { project_id: number; shard: number; n: number };

/** The respondent's columns an answer's counter rows are keyed and sharded by. */
export interface CountedRespondent extends PersonColumns {
  id: number;
  project_id: number;
  city: string | null;
}

/** Deltas as counter rows of one respondent, without the keys that cancel out, in key order. */
function rowsOfRespondent(deltas: Deltas, respondent: CountedRespondent): CounterRow[] {
  const who = counterPerson(respondent);
  const base = {
    project_id: respondent.project_id,
    ...who,
    shard: shardOf(respondent.id, who),
    ...cityPlace(respondent.id, respondent.city),
  };
  const keys = deltas.size > 1 ? [...deltas.keys()].sort() : [...deltas.keys()];
  const out: CounterRow[] = [];
  for (const k of keys) {
    const d = deltas.get(k)!;
    if (d.n !== 0) out.push({ ...base, ...d.key, n: d.n });
  }
  return out;
}

/** The deltas of some replies, each added with `sign`. */
function repliesDeltas(
  content: ProjectContent,
  replies: readonly ReplyEntry[],
  sign: 1 | -1,
  deltas: Deltas,
) {
  const questions = questionById(content);
  for (const r of replies) {
    const q = questions.get(r.questionId);
    if (q) addRows(deltas, replyRows(q, r.reply), q.id, kindsOf(q), sign);
  }
  return deltas;
}

/**
 * The counter changes of one answered page: the rows of `next` in, the rows of the `replaced`
 * replies (the stored replies from the page's position on, which the page's write deletes) out;
 * without the keys that cancel out, in key order (the fixed order every upsert takes its row locks
 * in). Write them with the answer rows, after the respondent's state was checked unchanged.
 */
export function replyCounts(
  content: ProjectContent,
  respondent: CountedRespondent,
  replaced: readonly ReplyEntry[],
  next: ReplyEntry,
): CounterRow[] {
  const deltas = repliesDeltas(content, replaced, -1, new Map());
  return rowsOfRespondent(repliesDeltas(content, [next], 1, deltas), respondent);
}

/**
 * The counter changes of a page answered in another language than the respondent's stored one
 * (docs/decisions/languages.md: the language of the last page counts): every row counted for them
 * under the stored language out (their stored replies, `before`, each of which an earlier answer
 * counted), and every row of their replies after this page (`after`) in under the new language. It
 * stands for replyCounts on that answer: the replaced replies are among `before`, the page among
 * `after`. Known from the state the write checks unchanged, so, like replyCounts, it reads no row.
 * A respondent answering is never excluded (exclusion refuses those still answering), so their rows
 * are all in the counters.
 */
export function languageMoveCounts(
  content: ProjectContent,
  respondent: CountedRespondent,
  before: readonly ReplyEntry[],
  after: readonly ReplyEntry[],
  language: string,
): CounterRow[] {
  return [
    ...rowsOfRespondent(repliesDeltas(content, before, -1, new Map()), respondent),
    ...rowsOfRespondent(repliesDeltas(content, after, 1, new Map()), { ...respondent, language }),
  ];
}

/**
 * Adds replyCounts' rows to the counters and the per-city counters on SQLite (PostgreSQL adds them
 * in the answer's own statement): an upsert each, its text built once per row count rather than
 * through the query builder on every answer (building and compiling it cost more than running it).
 */
export async function countReplyRowsSqlite(
  db: Pick<Db, 'executeQuery' | 'insertInto'>,
  rows: CounterRow[],
): Promise<void> {
  if (rows.length === 0) return;
  const byCity = cityRows(rows);
  if (rows.length > 50) {
    await upsertRows(db, rows);
    return upsertCityRows(db, byCity);
  }
  const values: unknown[] = [];
  for (const r of rows) for (const c of COUNTER_COLUMNS) values.push(r[c]);
  await db.executeQuery(CompiledQuery.raw(upsertText('report_counts', COUNTER_COLUMNS, rows.length), values));
  if (byCity.length === 0) return;
  const cityValues: unknown[] = [];
  for (const r of byCity) for (const c of CITY_COLUMNS) cityValues.push(r[c]);
  await db.executeQuery(
    CompiledQuery.raw(upsertText('report_city_counts', CITY_COLUMNS, byCity.length), cityValues),
  );
}

const COUNTER_COLUMNS = [...COUNTER_KEY, 'n'] as const;
const upsertTexts = new Map<string, string>();
function upsertText(table: string, columns: readonly string[], n: number): string {
  const id = `${table} ${n}`;
  let text = upsertTexts.get(id);
  if (!text) {
    const row = `(${columns.map(() => '?').join(', ')})`;
    const key = columns.filter((c) => c !== 'n').join(', ');
    text =
      `insert into ${table} (${columns.join(', ')}) values ${Array(n).fill(row).join(', ')} ` +
      `on conflict (${key}) do update set n = ${table}.n + excluded.n`;
    upsertTexts.set(id, text);
  }
  return text;
}

/** A respondent as the counters key them (the columns of respondents they read). */
export interface CountedPerson {
  id: number;
  portrait_id: string | null;
  gender: string | null;
  education: string | null;
  age: number | null;
  language: string | null;
  city: string | null;
}

/** Counts the rows of respondents written in bulk (tests, benchmarks): one upsert per 1 000 keys. */
export async function countSampleRows(
  db: Executor,
  projectId: number,
  questions: CounterQuestions,
  people: (CountedPerson & { answers: AnswerRow[] })[],
): Promise<void> {
  const places = new Set(questions.places);
  const multi = new Set(questions.multiRow);
  // Per person key (and shard), in each table: the deltas of everyone who shares it.
  const byPerson = new Map<string, { key: Record<string, string | number>; deltas: Deltas }>();
  const byCity = new Map<string, { key: Record<string, string | number>; deltas: Deltas }>();
  const groupOf = (groups: typeof byPerson, key: Record<string, string | number>): Deltas => {
    const k = Object.values(key).join('\u0002');
    let group = groups.get(k);
    if (!group) groups.set(k, (group = { key, deltas: new Map() }));
    return group.deltas;
  };
  for (const p of people) {
    const who = counterPerson(p);
    const targets = [groupOf(byPerson, { ...who, shard: shardOf(p.id, who) })];
    const { city, city_shard } = cityPlace(p.id, p.city);
    if (city !== '')
      targets.push(
        groupOf(byCity, {
          city,
          portrait_id: who.portrait_id,
          gender: who.gender,
          education: who.education,
          language: who.language,
          shard: city_shard,
        }),
      );
    const byQuestion = new Map<string, AnswerRow[]>();
    for (const a of p.answers) {
      const list = byQuestion.get(a.question_id);
      if (list) list.push(a);
      else byQuestion.set(a.question_id, [a]);
    }
    for (const deltas of targets)
      for (const [qid, rows] of byQuestion)
        addRows(deltas, rows, qid, { place: places.has(qid), multiRow: multi.has(qid) }, 1);
  }
  // Rows in key order (a fixed lock order: no deadlock between writers).
  const rowsOf = (groups: typeof byPerson) =>
    [...groups]
      .flatMap(([pk, { key, deltas }]) =>
        [...deltas]
          .filter(([, d]) => d.n !== 0)
          .map(([k, d]) => ({
            k: pk + '\u0003' + k,
            row: { project_id: projectId, ...key, ...d.key, n: d.n },
          })),
      )
      .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
      .map((e) => e.row);
  await upsertRows(db, rowsOf(byPerson) as never);
  await upsertCityRows(db, rowsOf(byCity) as never);
}
