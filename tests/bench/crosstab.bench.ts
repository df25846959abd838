import { sql } from 'kysely';
import type { TestServer } from '../server/helpers';
import { median, type Bench, type BenchResult } from './run';
import { onEachDatabase } from './databases';
import { seed } from './report-server.bench';
import { buildCrosstab, planCrosstab } from '../../server/reports/crosstab';
import { placeNamer } from '../../server/reports/places';
import { translator } from '../../server/http/i18n';

// Crosstabs at 100 000 respondents × 20 questions (DESIGN.md 7, issue 23: a crosstab with its tests
// ≤ 300 ms and ≤ 2 × a hand-written two-dimension GROUP BY over the same rows, in the same run): choice
// × choice, choice × age and number × gender, on SQLite and, when BENCH_DATABASE_URL (or
// TEST_DATABASE_URL) names a PostgreSQL server, on PostgreSQL too. The respondents are
// report-server.bench.ts's.

export const title =
  'Crosstabs: 100 000 respondents × 20 questions (with their tests, hand-written GROUP BY)';

const AGE_BAND = sql`case when p.age <= 17 then '14-17' when p.age <= 24 then '18-24' when p.age <= 34 then '25-34'
  when p.age <= 44 then '35-44' when p.age <= 54 then '45-54' when p.age is not null then '55+' end`;

async function measure(label: string, server: TestServer): Promise<BenchResult[]> {
  const db = server.app.db;
  const started = performance.now();
  const seeded = await seed(server);
  const { pid, content, rows } = seeded;
  console.log(`  ${label}: seeded ${rows} answer rows in ${Math.round(performance.now() - started)} ms`);
  // Seeding takes minutes, past the access token's life: the calls below sign in afresh.
  const session = await server.login(seeded.session.user.email);
  const questions = content.questionnaires[0].blocks[0].questions;
  const byCategory = (c: string) => questions.find((q) => q.category === c)!;
  const genre = byCategory('oneAnswer');
  const spend = byCategory('qualification');
  const nps = byCategory('nps');
  const texts = { t: translator('en'), placeName: placeNamer('en') };
  const out: BenchResult[] = [];
  // The references: the one query a person would write by hand for the same two dimensions.
  const cases = [
    {
      name: 'choice × choice',
      rows: genre.id,
      cols: spend.id,
      reference: () =>
        sql`select r.answer_id, c.answer_id, count(*) as n from respondent_answers r
          join respondent_answers c on c.respondent_id = r.respondent_id and c.question_id = ${spend.id}
          where r.project_id = ${pid} and r.question_id = ${genre.id} group by 1, 2`.execute(db),
    },
    {
      name: 'choice × age',
      rows: genre.id,
      cols: 'age',
      reference: () =>
        sql`select a.answer_id, ${AGE_BAND}, count(*) as n from respondent_answers a
          join respondents p on p.id = a.respondent_id
          where a.project_id = ${pid} and a.question_id = ${genre.id} group by 1, 2`.execute(db),
    },
    {
      name: 'number (NPS) × gender',
      rows: nps.id,
      cols: 'gender',
      reference: () =>
        sql`select a.value, p.gender, count(*) as n from respondent_answers a
          join respondents p on p.id = a.respondent_id
          where a.project_id = ${pid} and a.question_id = ${nps.id} group by 1, 2`.execute(db),
    },
  ];
  for (const c of cases) {
    const plan = planCrosstab(content, c.rows, c.cols);
    const reference = await median(c.reference, 7, 2);
    const crosstab = await median(
      () => buildCrosstab(db, { id: pid, name: 'Bench' }, content, plan, {}, texts),
      7,
      2,
    );
    const http = await median(
      async () => {
        const get = () =>
          server.call('GET', `/project/stats/crosstab?pid=${pid}&rows=${c.rows}&cols=${c.cols}`, { session });
        const res = await get().catch(get);
        if (res.status !== 200) throw new Error(`crosstab answered ${res.status}`);
      },
      7,
      2,
    );
    console.log(`  ${label}, ${c.name}: reference ${reference} ms, crosstab ${crosstab} ms, HTTP ${http} ms`);
    out.push(
      { name: `${label}, ${c.name}: hand-written two-dimension GROUP BY`, value: reference, unit: 'ms' },
      {
        name: `${label}, ${c.name}: crosstab with its tests (queries + shaping)`,
        value: crosstab,
        unit: 'ms',
        budget: 300,
        note: `${Math.round((crosstab / reference) * 100) / 100} × the hand-written query (budget 2 ×)`,
      },
      { name: `${label}, ${c.name}: GET /project/stats/crosstab over HTTP`, value: http, unit: 'ms' },
    );
  }
  return out;
}

const bench: Bench = () => onEachDatabase(measure);
export default bench;
