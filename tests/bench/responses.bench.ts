import { sql } from 'kysely';
import type { TestServer } from '../server/helpers';
import { median, type Bench, type BenchResult } from './run';
import { onEachDatabase } from './databases';
import { seed } from './report-server.bench';
import { SAMPLE_PLACES } from '../../server/reports/sample';
import { judgeProject } from '../../server/responses/backfill';
import { qualityCard } from '../../server/responses/report-parts';
import { counterQuestions } from '../../server/reports/counters';
import { counterTotals, recount } from '../../server/reports/recount';
import { FLAG_BITS } from '../../src/domain/quality';

// Respondents one by one at 100 000 respondents × 20 questions (DESIGN.md 7, issue 31): the list's
// first page ≤ 50 ms, any filter ≤ 200 ms, one respondent ≤ 20 ms, the quality card ≤ 200 ms,
// excluding 10 000 respondents by a filter ≤ 2 s with the report exact afterwards. Every call over
// HTTP on loopback as the page makes it; beside each, the plainest query a person would write for
// the same rows, measured in the same run. SQLite, and PostgreSQL with BENCH_DATABASE_URL (or
// TEST_DATABASE_URL). The respondents are report-server.bench.ts's.

export const title = 'Responses: 100 000 respondents one by one (list, filters, one respondent, exclusion)';

/** Respondents given the gibberish flag (the ended ones first by id): what "exclude all gibberish" takes. */
const EXCLUDED = 10_000;

async function measure(label: string, server: TestServer): Promise<BenchResult[]> {
  const db = server.app.db;
  const started = performance.now();
  const seeded = await seed(server);
  const { pid, content } = seeded;
  console.log(
    `  ${label}: seeded ${seeded.rows} answer rows in ${Math.round(performance.now() - started)} ms`,
  );
  // The flags: the speeder rule over the sample's durations (60–900 s), and a gibberish flag on
  // 10 000 ended respondents and a straight line on 2 000 more, as judging their texts would give.
  const judged = performance.now();
  await judgeProject(db, pid, content);
  const judgeMs = Math.round(performance.now() - judged);
  await sql`update respondents set flags = flags + ${FLAG_BITS.gibberish}
    where id in (select id from respondents where project_id = ${pid} and status <> 1 order by id limit ${EXCLUDED})`.execute(
    db,
  );
  await sql`update respondents set flags = flags + ${FLAG_BITS['straight-liner']}
    where id in (select id from respondents where project_id = ${pid} and status <> 1 and flags = 0
      order by id desc limit 2000)`.execute(db);
  const flagged = Number(
    (
      await db
        .selectFrom('respondents')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('project_id', '=', pid)
        .where(sql<number>`flags & ${FLAG_BITS.gibberish}`, '<>', 0)
        .executeTakeFirstOrThrow()
    ).n,
  );
  if (server.app.dialect === 'postgres') await sql`vacuum analyze respondents`.execute(db);
  else await sql`analyze`.execute(db);
  const session = await server.login(seeded.session.user.email);
  const get = async (path: string) => {
    const call = () => server.call('GET', path, { session });
    const res = await call().catch(call);
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const out: BenchResult[] = [];
  const list = (q: string) => `/project/respondents?pid=${pid}&pageSize=50${q}`;

  // The reference: the newest 50 respondents' columns, by hand.
  const reference = await median(
    () =>
      sql`select id, status, started_at, finished_at, gender, age, city, education, flags, exclusion
        from respondents where project_id = ${pid} order by started_at desc, id desc limit 50`.execute(db),
    9,
    2,
  );
  const first = await median(() => get(list('')), 9, 2);
  out.push(
    { name: `${label}: hand-written newest 50 respondents`, value: reference, unit: 'ms' },
    {
      name: `${label}: GET /project/respondents first page (50, newest first, with the total)`,
      value: first,
      unit: 'ms',
      budget: 50,
    },
  );

  const kazan = SAMPLE_PLACES.find((p) => p.region === 'Республика Татарстан')!.city;
  const moscow = SAMPLE_PLACES[0].city;
  const filters: [string, string][] = [
    ['gender', '&gender=female'],
    ['city (Kazan, 7 %)', `&city=${encodeURIComponent(kazan)}`],
    ['city (Moscow, 41 %) and age 25–40', `&city=${encodeURIComponent(moscow)}&ageMin=25&ageMax=40`],
    ['portrait', `&portrait=${content.portraits[0].id}`],
    ['status completed', '&status=completed'],
    ['status quotaFull (none)', '&status=quotaFull'],
    ['one day', '&from=2026-05-20&to=2026-05-20'],
    ['flag speeder', '&flag=speeder'],
    ['flag straight-liner (2 %)', '&flag=straight-liner'],
    ['flag duplicate (none)', '&flag=duplicate'],
    ['no flag', '&flag=none'],
    ['excluded only (none)', '&excluded=only'],
    ['written answer contains «ночной»', `&textSearch=${encodeURIComponent('ночной')}`],
    ['written answer contains a word no one wrote', `&textSearch=${encodeURIComponent('кооператив')}`],
    ['women, by duration, longest first', '&gender=female&sort=-duration'],
    ['Moscow, page 100', `&city=${encodeURIComponent(moscow)}&page=100`],
  ];
  let worst = 0;
  for (const [name, q] of filters) {
    const ms = await median(() => get(list(q)), 5, 1);
    worst = Math.max(worst, ms);
    out.push({ name: `${label}: list, ${name}`, value: ms, unit: 'ms', budget: 200 });
  }
  out.push({ name: `${label}: list, the slowest filter above`, value: worst, unit: 'ms', budget: 200 });

  const someone = (await get(`/project/respondents?pid=${pid}&status=completed&pageSize=1`)).items[0]
    .id as number;
  const one = await median(() => get(`/project/respondent?pid=${pid}&id=${someone}`), 15, 3);
  const oneReference = await median(
    () => sql`select * from respondent_answers where respondent_id = ${someone} order by id`.execute(db),
    15,
    3,
  );
  out.push(
    { name: `${label}: hand-written one respondent's answer rows`, value: oneReference, unit: 'ms' },
    { name: `${label}: GET /project/respondent (20 answers as texts)`, value: one, unit: 'ms', budget: 20 },
  );

  const card = await median(() => qualityCard(db, pid, {}), 7, 2);
  const cardFiltered = await median(() => qualityCard(db, pid, { gender: 'female' }), 7, 2);
  const cardReference = await median(
    () =>
      sql`select flags, count(*) from respondents where project_id = ${pid} and status = 2 group by flags`.execute(
        db,
      ),
    7,
    2,
  );
  out.push(
    { name: `${label}: hand-written count by flags`, value: cardReference, unit: 'ms' },
    { name: `${label}: quality card (report JSON quality)`, value: card, unit: 'ms', budget: 200 },
    { name: `${label}: quality card, women`, value: cardFiltered, unit: 'ms', budget: 200 },
  );

  // Exclude all gibberish (10 000 respondents) by a filter, check the report, restore them.
  const exclusion = async (excluded: boolean) => {
    const t = performance.now();
    const res = await server.call('POST', '/project/respondents/exclusion', {
      session,
      body: { pid, filter: { flag: 'gibberish' }, excluded, reason: 'Бессмысленные ответы' },
    });
    const ms = Math.round(performance.now() - t);
    if (res.status !== 200 || res.body.affected !== flagged)
      throw new Error(`exclusion answered ${res.status}: ${JSON.stringify(res.body)}`);
    return ms;
  };
  // The reference: the one UPDATE a person would write to mark them, put back right after (the
  // counters are not touched, so nothing else reads it in between).
  const mark = (v: number) =>
    sql`update respondents set excluded = ${v} where project_id = ${pid} and status <> 1
      and flags & ${FLAG_BITS.gibberish} <> 0`.execute(db);
  const marked = performance.now();
  await mark(1);
  const markMs = Math.round(performance.now() - marked);
  await mark(0);
  const excludeMs = await exclusion(true);
  const questions = counterQuestions(content);
  const key = (r: object) => JSON.stringify(r);
  const totals = new Set((await counterTotals(db, pid)).map(key));
  const recounted = (await recount(db, pid, questions)).filter((r) => r.n !== 0).map(key);
  const exact = totals.size === recounted.length && recounted.every((r) => totals.has(r));
  const report = await get(`/project/stats/file?pid=${pid}&type=json`);
  const left = await db
    .selectFrom('respondents')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', pid)
    .where('excluded', '=', 0)
    .executeTakeFirstOrThrow();
  if (!exact || report.respondents.excluded !== flagged || report.respondents.started !== Number(left.n)) {
    const missing = recounted.filter((r) => !totals.has(r)).slice(0, 5);
    const extra = [...totals].filter((r) => !recounted.includes(r)).slice(0, 5);
    throw new Error(
      `the report is not exact after the exclusion: ${JSON.stringify({
        counters: exact
          ? 'equal a recount'
          : { missing, extra, totals: totals.size, recounted: recounted.length },
        excluded: [report.respondents.excluded, flagged],
        started: [report.respondents.started, Number(left.n)],
      })}`,
    );
  }
  const restoreMs = await exclusion(false);
  out.push(
    {
      name: `${label}: hand-written UPDATE marking the same ${flagged.toLocaleString('en')} respondents excluded`,
      value: markMs,
      unit: 'ms',
    },
    {
      name: `${label}: exclude ${flagged.toLocaleString('en')} respondents by a filter (POST /project/respondents/exclusion)`,
      value: excludeMs,
      unit: 'ms',
      budget: 2000,
      note: 'counters equal a recount afterwards, and the report counts them excluded',
    },
    { name: `${label}: restore them`, value: restoreMs, unit: 'ms', budget: 2000 },
    {
      name: `${label}: flags judged for 100 000 respondents written in bulk (once)`,
      value: judgeMs,
      unit: 'ms',
    },
  );
  return out;
}

const bench: Bench = () => onEachDatabase(measure);
export default bench;
