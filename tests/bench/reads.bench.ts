import fs from 'node:fs';
import { Session as Inspector } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import { sql } from 'kysely';
import Fastify from 'fastify';
import { startServer, type Session, type TestServer } from '../server/helpers';
import { insertProject } from '../server/content-helpers';
import { bigProject } from '../unit/content-fixtures';
import { Role, UserStatus } from '../../src/domain/roles';
import { ProjectStatus, PROJECT_TEMPLATES } from '../../src/domain/projects';
import { writeContent } from '../../server/repos/content';
import { searchTextOf } from '../../server/repos/people';
import { dialectOf } from '../../server/db';
import { insertRespondents, sampleContent, sampleRespondents } from '../../server/reports/sample';
import type { BenchResult } from './run';

// Authenticated reads under 100 connections (DESIGN.md 7: ≥ 30 % of the req/s of a bare Fastify route
// reading the same rows in the same run; p99 ≤ 100 ms for the lists and the report JSON, ≤ 2 × the
// bare route's p99 for the 1 000-question project). Each read is signed in as an Administrator and
// asks with `Accept-Encoding: gzip, deflate, br`, as a browser does; its bare reference, in the same
// process on the same database, reads the same rows with one query and no checks, and runs just
// before it. SQLite always; PostgreSQL when TEST_DATABASE_URL is set. With READS_CPU_PROFILE=<prefix>
// each signed-in run is profiled into <prefix>-<database>-<read>.cpuprofile.

export const title = 'Authenticated reads under 100 connections (autocannon)';

interface Request {
  method?: string;
  headers?: Record<string, string>;
}
interface Options extends Request {
  url: string;
  connections?: number;
  duration?: number;
  workers?: number;
}
interface Result {
  requests: { average: number; total: number };
  latency: { p99: number };
  throughput: { average: number };
  '2xx': number;
  non2xx: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (o: Options) => Promise<Result>;

const CONNECTIONS = 100;
const SECONDS = Number(process.env.READS_SECONDS ?? 6);
const ROWS = 1_000;
const RESPONDENTS = 10_000;
const BROWSER = { 'accept-encoding': 'gzip, deflate, br', 'accept-language': 'en' };

/** Waits until requests left over from the previous run (autocannon stops sending at the end of its
 * duration, the server still answers what it had queued) no longer take this process's CPU, so one
 * run's tail is not measured in the next. */
async function settle() {
  for (let i = 0; i < 50; i++) {
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const used = process.cpuUsage(before);
    if ((used.user + used.system) / 1000 < 20) return;
  }
}

async function run(opts: Options) {
  // One second of the same load first, not measured: the pool's connections opened, the route's
  // code compiled by V8, PostgreSQL's prepared statements planned. Otherwise the first hundred
  // requests of a cold route, waiting on all of that, were the run's slowest percent (its p99).
  await autocannon({ connections: CONNECTIONS, duration: 1, workers: 1, ...opts });
  await settle();
  const before = process.cpuUsage();
  // autocannon in a worker thread: the load generator must not share the server's event loop, or
  // its own work is counted in every request's latency (the bare route's p99 was over 100 ms so).
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, workers: 1, ...opts });
  const used = process.cpuUsage(before);
  const cpu = (used.user + used.system) / 1000 / Math.max(1, result.requests.total);
  return { ...result, cpu: Math.round(cpu * 100) / 100 };
}

async function profiled<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const prefix = process.env.READS_CPU_PROFILE;
  if (!prefix) return fn();
  const session = new Inspector();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    fs.writeFileSync(`${prefix}-${label}.cpuprofile`, JSON.stringify(profile));
    session.disconnect();
  }
}

/** The rows the reads show: 1 000 projects, researchers and games over 10 organizations; a
 * 1 000-question project; a finished 20-question project with 10 000 respondents. */
async function seed(server: TestServer) {
  const db = server.app.db;
  const now = Date.now();
  const orgs: number[] = [];
  for (let i = 0; i < 10; i++) orgs.push(await server.createOrganization(`Organization ${i}`));
  const admin = await server.as(Role.Administrator, { organizationId: orgs[0] });
  const projects = Array.from({ length: ROWS }, (_, i) => ({
    name: `Survey ${i}`,
    search_name: `survey ${i}`,
    priority: i % 101,
    organization_id: orgs[i % orgs.length],
    template: PROJECT_TEMPLATES[i % 3],
    type: i % 3 === 1 ? 2 : 1,
    status: ProjectStatus.Created,
    link_token: null,
    created_by: null,
    created_at: now - i * 1000,
    updated_at: now,
    status_changed_at: now,
  }));
  for (let i = 0; i < ROWS; i += 500)
    await db
      .insertInto('projects')
      .values(projects.slice(i, i + 500))
      .execute();
  const users = Array.from({ length: ROWS }, (_, i) => ({
    email: `researcher${i}@example.com`,
    fullname: `Researcher ${i}`,
    role_id: Role.Researcher,
    status_id: UserStatus.Activated,
    organization_id: orgs[i % orgs.length],
    category_id: null,
    password_hash: null,
    locale: null,
    created_at: now - i * 1000,
    updated_at: now,
    search_text: searchTextOf(`researcher${i}@example.com`, `Researcher ${i}`),
  }));
  for (let i = 0; i < ROWS; i += 500)
    await db
      .insertInto('users')
      .values(users.slice(i, i + 500))
      .execute();
  const games = Array.from({ length: ROWS }, (_, i) => ({
    name: `Game ${i}`,
    name_norm: `game ${i}`,
    organization_id: orgs[i % orgs.length],
    genre_id: 1,
    platform_id: 1,
    currency_id: 1,
    status: 1,
    url: `https://game${i}.example.com`,
    api_key_hash: `k${i}`,
    api_key_prefix: 'abcd',
    api_key_suffix: 'wxyz',
    token_hash: `t${i}`,
    token_prefix: 'abcd',
    token_suffix: 'wxyz',
    sdk_connected_at: null,
    last_sdk_at: null,
    created_by: null,
    created_at: now - i * 1000,
    updated_at: now,
  }));
  for (let i = 0; i < ROWS; i += 500)
    await db
      .insertInto('games')
      .values(games.slice(i, i + 500))
      .execute();

  const big = await insertProject(server, orgs[0], { name: '1 000 questions' });
  await writeContent(db, big, 0, bigProject(), admin.user.id);
  const report = await insertProject(server, orgs[0], {
    status: ProjectStatus.ProjectFinished,
    name: 'Report',
  });
  const content = sampleContent({ extraQuestions: 7 });
  await writeContent(db, report, 0, content, admin.user.id);
  for (let i = 0; i < RESPONDENTS; i += 5_000)
    await insertRespondents(
      db,
      report,
      content.questionnaires[0].id,
      sampleRespondents(7 + i, 5_000, content),
    );
  if (server.app.dialect === 'postgres') await sql`vacuum analyze`.execute(db);
  else await sql`analyze`.execute(db);
  return { admin, big, report };
}

/** The bare references: each the same rows as its read, one query, no session, no checks. */
async function bareServer(server: TestServer, ids: { big: number; report: number }) {
  const db = server.app.db;
  const bare = Fastify({ logger: false });
  bare.get('/projects', () =>
    db
      .selectFrom('projects as p')
      .innerJoin('organizations as o', 'o.id', 'p.organization_id')
      .select(['p.id', 'p.name', 'p.priority', 'p.organization_id', 'o.name as organization_name'])
      .select(['p.template', 'p.type', 'p.status', 'p.created_at', 'p.updated_at'])
      .orderBy('p.id', 'desc')
      .limit(20)
      .execute(),
  );
  bare.get('/users', () =>
    db
      .selectFrom('users as u')
      .leftJoin('organizations as o', 'o.id', 'u.organization_id')
      .leftJoin('categories as c', 'c.id', 'u.category_id')
      .select(['u.id', 'u.email', 'u.fullname', 'u.role_id', 'u.status_id', 'u.locale', 'u.created_at'])
      .select([
        'o.id as org_id',
        'o.name as org_name',
        'o.type as org_type',
        'c.id as cat_id',
        'c.name as cat_name',
      ])
      .where('u.role_id', '=', Role.Researcher)
      .orderBy('u.created_at', 'desc')
      .orderBy('u.id', 'desc')
      .limit(20)
      .execute(),
  );
  bare.get('/games', () =>
    db
      .selectFrom('games as g')
      .innerJoin('game_genres as ge', 'ge.id', 'g.genre_id')
      .innerJoin('game_platforms as gp', 'gp.id', 'g.platform_id')
      .innerJoin('game_currencies as gc', 'gc.id', 'g.currency_id')
      .innerJoin('organizations as o', 'o.id', 'g.organization_id')
      .select([
        'g.id',
        'g.name',
        'g.organization_id',
        'g.status',
        'g.url',
        'g.api_key_prefix',
        'g.api_key_suffix',
      ])
      .select(['g.token_prefix', 'g.token_suffix', 'g.sdk_connected_at', 'g.last_sdk_at', 'g.created_at'])
      .select(['g.updated_at', 'ge.name_en', 'gp.name_en as platform', 'gc.code', 'o.name as org_name'])
      .orderBy('g.created_at', 'desc')
      .orderBy('g.id', 'desc')
      .limit(20)
      .execute(),
  );
  bare.get('/project', async (_req, reply) => {
    const row = await db
      .selectFrom('project_contents')
      .select(['version', 'content'])
      .where('project_id', '=', ids.big)
      .executeTakeFirstOrThrow();
    return reply
      .type('application/json; charset=utf-8')
      .send(`{"version":${row.version},"content":${row.content}}`);
  });
  bare.get('/report', () =>
    db
      .selectFrom('report_counts')
      .select(['question_id', 'kind', 'answer_id', 'statement_id', 'has_value', 'value', 'place'])
      .select(sql<number>`sum(n)`.as('n'))
      .where('project_id', '=', ids.report)
      .groupBy(['question_id', 'kind', 'answer_id', 'statement_id', 'has_value', 'value', 'place'])
      .execute(),
  );
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const address = bare.server.address();
  return { bare, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

const READS = [
  { key: 'projects', name: 'GET /projects', path: '/projects', bare: '/projects', p99: 100 },
  { key: 'users', name: 'GET /users?roles=4', path: '/users?roles=4', bare: '/users', p99: 100 },
  { key: 'games', name: 'GET /games', path: '/games', bare: '/games', p99: 100 },
  {
    key: 'project',
    name: 'GET /project (1 000 questions)',
    path: '/project?pid=BIG',
    bare: '/project',
    p99: 0,
  },
  {
    key: 'report',
    name: 'GET /project/stats/file?type=json (10 000 respondents)',
    path: '/project/stats/file?type=json&pid=REPORT',
    bare: '/report',
    p99: 100,
  },
] as const;

async function measure(server: TestServer, label: string): Promise<BenchResult[]> {
  const { admin, big, report } = await seed(server);
  // PostgreSQL after a bulk load: its statistics gathered and the new rows' visibility settled now,
  // not by autovacuum in the middle of the first measured read.
  if (dialectOf(server.app.db) === 'postgres') await sql`vacuum analyze`.execute(server.app.db);
  const { bare, url: bareUrl } = await bareServer(server, { big, report });
  const signed = (s: Session) => ({
    ...BROWSER,
    'x-auth-token': s.accessToken,
    'x-refresh-token': s.refreshToken,
  });
  const out: BenchResult[] = [];
  try {
    // READS_ONLY=projects,users runs only those reads (a quick look at a few; a full bench runs all).
    const only = process.env.READS_ONLY?.split(',');
    for (const read of READS.filter((r) => !only || only.includes(r.key))) {
      const path = read.path.replace('BIG', String(big)).replace('REPORT', String(report));
      const check = await server.call('GET', path, { session: admin, headers: { 'accept-encoding': 'br' } });
      if (check.status !== 200) throw new Error(`${path}: ${check.status}`);
      const reference = await run({ url: bareUrl + read.bare, headers: BROWSER });
      const real = await profiled(`${label}-${read.key}`, () =>
        run({ url: `${server.url}/api/v1/service${path}`, headers: signed(admin) }),
      );
      if (real.non2xx > 0) throw new Error(`${path}: ${real.non2xx} answers not 2xx`);
      const share = Math.round((real.requests.average / Math.max(1, reference.requests.average)) * 1000) / 10;
      const p99Budget = read.p99 || 2 * reference.latency.p99;
      const kb = (r: Result) =>
        Math.round(r.throughput.average / Math.max(1, r.requests.average) / 102.4) / 10;
      out.push(
        {
          name: `${label}: bare route for ${read.name}`,
          value: Math.round(reference.requests.average),
          unit: 'req/s',
          note: `p99 ${reference.latency.p99} ms; CPU ${reference.cpu} ms a request; ${kb(reference)} KB a response`,
        },
        {
          name: `${label}: ${read.name}`,
          value: Math.round(real.requests.average),
          unit: 'req/s',
          note: `${share} % of bare (goal ≥ 30 %); p99 ${real.latency.p99} ms (goal ≤ ${p99Budget}); CPU ${real.cpu} ms a request; ${kb(real)} KB a response`,
        },
        { name: `${label}: ${read.name} p99`, value: real.latency.p99, unit: 'ms', budget: p99Budget },
      );
      console.log(`  ${out.at(-3)!.name}: ${out.at(-3)!.value} req/s ${out.at(-3)!.note}`);
      console.log(`  ${out.at(-2)!.name}: ${out.at(-2)!.value} req/s ${out.at(-2)!.note}`);
    }
  } finally {
    await bare.close();
  }
  return out;
}

export default async function readsBench(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const pgUrl = process.env.TEST_DATABASE_URL;
  delete process.env.TEST_DATABASE_URL;
  const only = process.env.READS_DATABASE;
  if (only !== 'postgres') {
    const sqlite = await startServer();
    try {
      results.push(...(await measure(sqlite, 'SQLite')));
    } finally {
      await sqlite.close();
    }
  }
  if (pgUrl && only !== 'sqlite') {
    process.env.TEST_DATABASE_URL = pgUrl;
    const pg = await startServer();
    try {
      results.push(...(await measure(pg, 'PostgreSQL')));
    } finally {
      await pg.close();
    }
  }
  return results;
}
