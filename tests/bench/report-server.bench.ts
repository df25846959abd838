import { sql } from 'kysely';
import type { TestServer } from '../server/helpers';
import { median, type Bench, type BenchResult } from './run';
import { onEachDatabase } from './databases';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import { writeContent } from '../../server/repos/content';
import { insertProject } from '../server/content-helpers';
import {
  insertRespondents,
  SAMPLE_PLACES,
  sampleContent,
  sampleRespondents,
} from '../../server/reports/sample';
import { withEnglish } from '../../server/reports/sample-english';
import { buildReport, readiness } from '../../server/reports/report';
import type { ReportFilters } from '../../src/domain/reports';

// The report at 100 000 respondents × 20 questions (DESIGN.md 7: ≤ 500 ms and ≤ 2 × a hand-written
// GROUP BY over the same rows, in the same run), on SQLite and, when BENCH_DATABASE_URL (or
// TEST_DATABASE_URL) names a PostgreSQL server, on PostgreSQL too. The downloads of the same
// respondents (XLSX, CSV) are measured by report-download.bench.ts.

export const title = 'Reports: 100 000 respondents × 20 questions (JSON report, hand-written GROUP BY)';

const RESPONDENTS = Number(process.env.BENCH_RESPONDENTS ?? 100_000);
const CHUNK = 5_000;

/** The bench's project: 20 questions, RESPONDENTS respondents (report-download.bench.ts seeds it too). */
export async function seed(server: TestServer) {
  const org = await server.createOrganization('Bench');
  const session = await server.as(Role.Researcher, { organizationId: org });
  const pid = await insertProject(server, org, { status: ProjectStatus.OnRotation, name: 'Bench report' });
  // In Russian and English (issue 32): a quarter of the respondents answer in English.
  const content = withEnglish(sampleContent({ extraQuestions: 7 }));
  await writeContent(server.app.db, pid, 0, content, session.user.id);
  let rows = 0;
  for (let i = 0; i < RESPONDENTS; i += CHUNK) {
    const people = sampleRespondents(1000 + i, Math.min(CHUNK, RESPONDENTS - i), content);
    rows += people.reduce((s, p) => s + p.answers.length, 0);
    await insertRespondents(server.app.db, pid, content.questionnaires[0].id, people);
  }
  // What autovacuum does on a live database after a bulk load: statistics for the planner and, on
  // PostgreSQL, the visibility map that lets the report read the covering index alone.
  if (server.app.dialect === 'postgres') await sql`vacuum analyze`.execute(server.app.db);
  else await sql`analyze`.execute(server.app.db);
  return { pid, session, content, rows };
}

/** The reference: the one GROUP BY a person would write by hand for the choice counts. */
function handWritten(server: TestServer, pid: number, f: ReportFilters) {
  const db = server.app.db;
  const terms = [
    f.portrait !== undefined && sql`r.portrait_id = ${f.portrait}`,
    f.gender !== undefined && sql`r.gender = ${f.gender}`,
    f.ageMin !== undefined && sql`r.age >= ${f.ageMin}`,
    f.ageMax !== undefined && sql`r.age <= ${f.ageMax}`,
    f.city !== undefined && sql`r.city = ${f.city}`,
    f.education !== undefined && sql`r.education = ${f.education}`,
    f.language !== undefined && sql`r.language = ${f.language}`,
  ].filter((t) => t !== false);
  if (terms.length > 0)
    return sql`select a.question_id, a.answer_id, count(*) as n from respondent_answers a
      join respondents r on r.id = a.respondent_id
      where a.project_id = ${pid} and ${sql.join(terms, sql` and `)}
      group by a.question_id, a.answer_id`.execute(db);
  return sql`select question_id, answer_id, count(*) as n from respondent_answers
    where project_id = ${pid} group by question_id, answer_id`.execute(db);
}

const kazan = SAMPLE_PLACES.find((p) => p.region === 'Республика Татарстан')!.city;
const moscow = SAMPLE_PLACES[0].city;

async function measure(label: string, server: TestServer): Promise<BenchResult[]> {
  const started = performance.now();
  const { pid, session, content, rows } = await seed(server);
  const seedSeconds = Math.round((performance.now() - started) / 100) / 10;
  console.log(`  ${label}: seeded ${rows} answer rows in ${seedSeconds} s`);
  const out: BenchResult[] = [];
  const project = (await server.app.db
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', pid)
    .executeTakeFirst())!;
  const ready = await readiness(server.app.db, project);
  // Every filter reads the counters kept at write time (a city its own per-city counters) but a city
  // with an age range, which groups the answer rows of its respondents.
  const portrait = content.portraits[0].id;
  for (const [name, f, q] of [
    ['no filter', {}, ''],
    ['portrait filter', { portrait }, `&portrait=${portrait}`],
    ['gender filter', { gender: 'female' }, '&gender=female'],
    [
      'age 25–40 and higher education',
      { ageMin: 25, ageMax: 40, education: 'higher' },
      '&ageMin=25&ageMax=40&education=higher',
    ],
    ['city filter (Kazan, 7 %)', { city: kazan }, `&city=${encodeURIComponent(kazan)}`],
    ['city filter (Moscow, 41 %)', { city: moscow }, `&city=${encodeURIComponent(moscow)}`],
    [
      'Moscow and women',
      { city: moscow, gender: 'female' },
      `&city=${encodeURIComponent(moscow)}&gender=female`,
    ],
    // What no counters key, a language (issue 32), a city and an age range: the answer rows of the
    // filtered respondents.
    ['language filter (English, 25 %)', { language: 'en' }, '&language=en'],
    [
      'Kazan, age 25–40',
      { city: kazan, ageMin: 25, ageMax: 40 },
      `&city=${encodeURIComponent(kazan)}&ageMin=25&ageMax=40`,
    ],
    [
      'Moscow, age 25–40',
      { city: moscow, ageMin: 25, ageMax: 40 },
      `&city=${encodeURIComponent(moscow)}&ageMin=25&ageMax=40`,
    ],
  ] as const) {
    const reference = await median(() => handWritten(server, pid, f), 5, 1);
    const report = await median(
      () =>
        buildReport(server.app.db, project, { filters: f, openPage: 1, openPageSize: 20, ready, content }),
      5,
      1,
    );
    const http = await median(
      async () => {
        // One retry: a kept-alive connection the server closed while the previous step ran resets.
        const get = () => server.call('GET', `/project/stats/file?pid=${pid}&type=json${q}`, { session });
        const res = await get().catch(get);
        if (res.status !== 200) throw new Error(`report answered ${res.status}`);
      },
      5,
      1,
    );
    console.log(`  ${label}, ${name}: reference ${reference} ms, report ${report} ms, HTTP ${http} ms`);
    out.push(
      { name: `${label}, ${name}: hand-written GROUP BY`, value: reference, unit: 'ms' },
      {
        name: `${label}, ${name}: JSON report (queries + shaping)`,
        value: report,
        unit: 'ms',
        budget: 500,
        note: `${Math.round((report / reference) * 100) / 100} × the hand-written query (budget 2 ×)`,
      },
      { name: `${label}, ${name}: GET /project/stats/file type=json over HTTP`, value: http, unit: 'ms' },
    );
  }

  out.push({
    name: `${label}: seeding`,
    value: seedSeconds * 1000,
    unit: 'ms',
    note: `${RESPONDENTS.toLocaleString('en')} respondents, ${rows.toLocaleString('en')} answer rows`,
  });
  return out;
}

const bench: Bench = () => onEachDatabase(measure);
export default bench;
