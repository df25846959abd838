import crypto from 'node:crypto';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { dialectOf } from '../../server/db';
import { benchContent, respondentsInFlight } from './answer-respondents';
import { answerRun, CONNECTIONS, run } from './answer-walk';
import { startServer, type TestServer } from '../server/helpers';
import { insertSurveyProject } from '../server/survey-fixtures';
import { ProjectStatus } from '../../src/domain/projects';
import { startRespondent } from '../../server/survey/respond';
import { cityIds } from '../../server/data/cities';
import { EDUCATION_LEVELS } from '../../src/domain/lookups';
import { SURVEY_LIMITS } from '../../server/routes/survey';
import type { BenchResult } from './run';
import { startReceiver, type Receiver } from '../server/callback-receiver';
import { writeDelivery } from '../../server/callbacks/deliveries';
import { wakeSender } from '../../server/callbacks/sender';

// What answers-beside.ts takes from here (the walk and the survey now live in answer-walk.ts and
// answer-respondents.ts).
export { autocannon } from './answer-walk';
export { benchContent } from './answer-respondents';

// Answer submission under load (DESIGN.md 7: ≥ 50 % of the req/s of a bare Fastify route that writes
// the same row on the same database, p99 ≤ 50 ms). 100 autocannon connections answering, page by page,
// a 30-question survey against the real server, with 4 000, 6 000 and 50 000 respondents in flight
// (ANSWER_IN_FLIGHT=4000,6000,50000): within each server process's respondent cache (5 000), just past
// it and far past it. The respondents start the run mid-survey (answer-respondents.ts). Before each
// answer run, the bare route, in the same process on the same database, inserts one respondent_answers
// row. SQLite always; PostgreSQL when TEST_DATABASE_URL is set, meant with its durable defaults (fsync
// and synchronous_commit on): a row's name says so when they are off. With pg_stat_statements loaded,
// each PostgreSQL row counts statements and commits per answer.

export const title = 'Respondents: answer submission under 100 connections (autocannon)';

const PER_CONNECTION = 40;
/** Respondents in flight, one run each: within the respondent cache (5 000 a process), past it, far past it. */
const IN_FLIGHT = (process.env.ANSWER_IN_FLIGHT ?? '4000,6000,50000').split(',').map(Number);
/** Deliveries written at once to time the sender. */
const CALLBACK_DELIVERIES = 2000;

/** Starts 4 000 respondents of the project (as a game's players come), PER_CONNECTION per connection. */
export async function startRespondents(server: TestServer, pid: number) {
  const db = server.app.db;
  const project = { id: pid, status: ProjectStatus.OnRotation, template: 'directLink' };
  const tokens: string[][] = [];
  // Respondents as a game's players come: gender, age, education and a city (two in five from one big
  // city), so every answer counts in the counters by person and in the per-city counters.
  const cities = cityIds().slice(0, 30);
  for (let c = 0; c < CONNECTIONS; c++) {
    const mine: string[] = [];
    for (let k = 0; k < PER_CONNECTION; k++) {
      const i = c * PER_CONNECTION + k;
      const attributes = {
        gender: i % 2 ? ('female' as const) : ('male' as const),
        age: 14 + (i % 57),
        education: EDUCATION_LEVELS[i % EDUCATION_LEVELS.length],
        city: i % 5 < 2 ? cities[0] : cities[i % cities.length],
      };
      const r = await startRespondent(db, { project, source: 'demo', attributes });
      if (r.outcome !== 'started') throw new Error('not started');
      mine.push(r.token);
    }
    tokens.push(mine);
  }
  return { tokens };
}

/** The bare reference: the same row, the same database, the same process, no checks. */
async function bareRun(db: TestServer['app']['db'], pid: number) {
  const { id } = await db
    .selectFrom('respondents')
    .select('id')
    .where('project_id', '=', pid)
    .orderBy('id')
    .limit(1)
    .executeTakeFirstOrThrow();
  const bare = Fastify({ logger: false });
  bare.post('/bare', async () => {
    await db
      .insertInto('respondent_answers')
      .values({
        respondent_id: id,
        project_id: pid,
        question_id: 'q0',
        answer_id: 'q0a',
        statement_id: null,
        value: null,
        text: null,
      })
      .execute();
    return { ok: true };
  });
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const address = bare.server.address();
  const bareUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/bare`;
  try {
    return await run({
      url: bareUrl,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ at: 0, questionId: 'q0', reply: { answers: ['q0a'] } }),
    });
  } finally {
    await bare.close();
  }
}

async function measure(server: TestServer, label: string, receiver: Receiver): Promise<BenchResult[]> {
  const db = server.app.db;
  const results: BenchResult[] = [];
  let lastBare = 0;
  // Each count of respondents in flight gets its own project, and the bare route is run right before
  // its answers (the shared machine's load drifts within minutes).
  for (const n of IN_FLIGHT) {
    const content = benchContent();
    const { pid } = await insertSurveyProject(server, content);
    const walkers = await respondentsInFlight(db, pid, content, n);
    const reference = await bareRun(db, pid);
    lastBare = reference.requests.average;
    const before = await statementCount(db);
    const survey = await answerRun(server.url, `${label}-${n}`, walkers);
    const after = await statementCount(db);
    const statements = before && after ? describeStatements(before, after, survey['2xx']) : '';
    const share = Math.round((survey.requests.average / Math.max(1, reference.requests.average)) * 100);
    const at = `${label}, ${n.toLocaleString('en').replace(/,/g, ' ')} in flight`;
    results.push(
      {
        name: `${at}: bare route, one row`,
        value: Math.round(reference.requests.average),
        unit: 'req/s',
        note: `p99 ${reference.latency.p99} ms; CPU ${reference.cpu} ms a request`,
      },
      {
        name: `${at}: POST /survey/answer`,
        value: Math.round(survey.requests.average),
        unit: 'req/s',
        note: `${share} % of bare (goal ≥ 50 %); p99 ${survey.latency.p99} ms (goal ≤ 50); CPU ${survey.cpu} ms a request; ${survey['2xx']} answered, ${survey.non2xx} not 2xx${statements}`,
      },
      { name: `${at}: answer p99`, value: survey.latency.p99, unit: 'ms', budget: 50 },
    );
  }
  // ANSWER_CALLBACKS=0 leaves the callbacks' run out (while profiling the answers alone).
  if (process.env.ANSWER_CALLBACKS !== '0')
    results.push(...(await measureCallbacks(server, label, receiver, lastBare)));
  return results;
}

/** PostgreSQL's count of statements run and transactions committed in this database, when
 * pg_stat_statements is loaded (shared_preload_libraries); null elsewhere. */
async function statementCount(db: TestServer['app']['db']) {
  if (dialectOf(db) !== 'postgres') return null;
  try {
    await sql`create extension if not exists pg_stat_statements`.execute(db);
    const { rows } = await sql<{ query: string; calls: number; ms: number }>`
      select query, calls::float8 as calls, total_exec_time as ms from pg_stat_statements
      where dbid = (select oid from pg_database where datname = current_database())`.execute(db);
    const { rows: tx } = await sql<{ commits: number }>`
      select xact_commit::float8 as commits from pg_stat_database where datname = current_database()`.execute(
      db,
    );
    return { rows, commits: Number(tx[0].commits) };
  } catch {
    return null;
  }
}

/** Statements and commits per answer over the run (the bench's own few statements included), and
 * the costliest statements on the console. */
function describeStatements(
  before: NonNullable<Awaited<ReturnType<typeof statementCount>>>,
  after: NonNullable<Awaited<ReturnType<typeof statementCount>>>,
  answers: number,
) {
  const was = new Map(before.rows.map((r) => [r.query, r]));
  const delta = after.rows
    .map((r) => ({
      query: r.query,
      calls: r.calls - (was.get(r.query)?.calls ?? 0),
      ms: r.ms - (was.get(r.query)?.ms ?? 0),
    }))
    .filter((r) => r.calls > 0)
    .sort((a, b) => b.ms - a.ms);
  for (const r of delta.slice(0, 6))
    console.log(`    ${r.calls} calls, ${r.ms.toFixed(0)} ms: ${r.query.replace(/\s+/g, ' ').slice(0, 110)}`);
  const calls = delta.reduce((a, r) => a + r.calls, 0);
  const per = (x: number) => (x / Math.max(1, answers)).toFixed(2);
  return `; ${per(calls)} statements and ${per(after.commits - before.commits)} commits an answer`;
}

/**
 * The same answer run on a server with METRICS_TOKEN set (issue 33: every call timed by route, the
 * answers and group commits counted), against the bare route measured in the same run.
 */
async function measureWithMetrics(server: TestServer, label: string): Promise<BenchResult[]> {
  const { pid } = await insertSurveyProject(server, benchContent());
  const { tokens } = await startRespondents(server, pid);
  const bare = (await bareRun(server.app.db, pid)).requests.average;
  const walkers = tokens.flat().map((token) => ({ token, at: 0 }));
  const survey = await answerRun(server.url, `${label}-metrics`, walkers);
  const scrape = await fetch(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const counted = /^survey_answers_accepted_total (\d+)$/m.exec(await scrape.text())?.[1];
  const share = Math.round((survey.requests.average / Math.max(1, bare)) * 100);
  return [
    {
      name: `${label}: POST /survey/answer with metrics on (METRICS_TOKEN)`,
      value: Math.round(survey.requests.average),
      unit: 'req/s',
      note: `${share} % of bare (${Math.round(bare)} req/s right before; goal ≥ 50 %); p99 ${survey.latency.p99} ms; CPU ${survey.cpu} ms a request; ${survey['2xx']} answered, ${counted} counted by survey_answers_accepted_total`,
    },
  ];
}

const METRICS_TOKEN = 'bench-metrics-token';

/**
 * Block callbacks (issue 24): the walk over a survey of 6 blocks of 5 pages, every block with a
 * callbackUrl (a loopback receiver), respondents answering page after page, so every fifth answer
 * completes a block and writes a delivery in its transaction while this process's sender calls the
 * receiver (compared with the bare route, like the answer run above); then how many deliveries a
 * second one sender makes, timed over CALLBACK_DELIVERIES written at once, with a connection per call
 * (CALLBACK_KEEP_ALIVE=off, as before issue 34) and with kept connections, in the same run.
 */
async function measureCallbacks(
  server: TestServer,
  label: string,
  receiver: Receiver,
  bare: number,
): Promise<BenchResult[]> {
  const db = server.app.db;
  const content = benchContent(receiver.url);
  const { pid } = await insertSurveyProject(server, content);
  const { tokens } = await startRespondents(server, pid);
  const before = receiver.received.length;
  const walkers = tokens.flat().map((token) => ({ token, at: 0 }));
  const survey = await answerRun(server.url, `${label}-callbacks`, walkers, true);
  const share = Math.round((survey.requests.average / Math.max(1, bare)) * 100);
  const written = await countDeliveries(db, pid);
  // Let the sender drain what the answers wrote (at most a minute), then time a batch of its own.
  await waitFor(async () => (await countDeliveries(db, pid, 'pending')) === 0, 60_000);
  const drained = receiver.received.length - before;
  // Then how many deliveries a second one sender makes, a connection per call (as before issue 34)
  // and kept connections (now), twice each, alternating, each on a fresh server.
  const rates: Record<'perCall' | 'kept', DeliveryRate[]> = { perCall: [], kept: [] };
  for (let round = 0; round < 2; round++) {
    rates.perCall.push(await deliveryRate(receiver, false));
    rates.kept.push(await deliveryRate(receiver, true));
  }
  const best = (list: DeliveryRate[]) => list.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
  const runs = (list: DeliveryRate[]) => list.map((r) => r.perSecond).join(' / ');
  const rate = (how: string, list: DeliveryRate[], budget?: number): BenchResult => ({
    name: `${label}: callback deliveries a second, ${how} (one sender, loopback receiver)`,
    value: best(list).perSecond,
    unit: 'req/s',
    note: `best of ${runs(list)}; ${CALLBACK_DELIVERIES} deliveries in ${best(list).seconds.toFixed(1)} s from their commit (written in ${best(list).writeSeconds.toFixed(1)} s before); CPU ${best(list).cpuMs.toFixed(2)} ms a delivery (sender and receiver in one process)${budget ? ` (goal ≥ ${budget})` : ''}`,
  });
  return [
    {
      name: `${label}: POST /survey/answer, a callback on every block`,
      value: Math.round(survey.requests.average),
      unit: 'req/s',
      note: `${share} % of bare (goal ≥ 50 %); p99 ${survey.latency.p99} ms; CPU ${survey.cpu} ms a request; ${survey['2xx']} answered, ${survey.non2xx} not 2xx; ${written} deliveries written (one per ${(survey['2xx'] / Math.max(1, written)).toFixed(1)} answers), ${drained} calls received by the end of the drain`,
    },
    rate('a connection per call (before)', rates.perCall),
    rate('kept connections', rates.kept, 500),
  ];
}

/** '' with PostgreSQL's durable defaults, else what is off (a row measured so must say it). */
async function durability(server: TestServer) {
  const { rows } = await sql<{ name: string; setting: string }>`
    select name, setting from pg_settings where name in ('fsync', 'synchronous_commit', 'full_page_writes')`.execute(
    server.app.db,
  );
  const off = rows.filter((r) => r.setting === 'off').map((r) => `${r.name}=off`);
  return off.length ? ` (${off.join(', ')})` : '';
}

interface DeliveryRate {
  perSecond: number;
  seconds: number;
  /** Writing the deliveries before the clock starts. */
  writeSeconds: number;
  cpuMs: number;
}

/**
 * CALLBACK_DELIVERIES written at once on a fresh server (SQLite, or PostgreSQL while
 * TEST_DATABASE_URL is set), timed from the write's commit until the last is marked delivered.
 */
async function deliveryRate(receiver: Receiver, keepAlive: boolean): Promise<DeliveryRate> {
  const server = await startServer((c) => {
    c.callbacks.allowHosts = [`127.0.0.1:${receiver.port}`];
    c.callbacks.keepAlive = keepAlive;
  });
  try {
    const db = server.app.db;
    const { pid } = await insertSurveyProject(server, benchContent(receiver.url));
    const batch = Array.from({ length: CALLBACK_DELIVERIES }, (_, i) => ({
      id: crypto.randomUUID(),
      projectId: pid,
      blockId: `bench${i}`,
      respondentId: null,
      url: receiver.url,
      body: JSON.stringify({ event: 'block.completed', n: i }),
      test: true,
      at: Date.now(),
    }));
    // The clock starts once the deliveries are committed: what is timed is the sender. (It used to
    // start before the 2 000 INSERTs, one round trip each, which on PostgreSQL under load were
    // 2–10 s of the figure; their time is in the note.)
    const writing = performance.now();
    await db.transaction().execute(async (trx) => {
      for (const d of batch) await writeDelivery(trx, d);
    });
    const started = performance.now();
    const cpu = process.cpuUsage();
    wakeSender(db);
    await waitFor(async () => (await countDeliveries(db, pid, 'delivered')) >= CALLBACK_DELIVERIES, 120_000);
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    return {
      perSecond: Math.round(CALLBACK_DELIVERIES / seconds),
      seconds,
      writeSeconds: (started - writing) / 1000,
      cpuMs: (used.user + used.system) / 1000 / CALLBACK_DELIVERIES,
    };
  } finally {
    await server.close();
  }
}

async function countDeliveries(db: TestServer['app']['db'], pid: number, status?: string): Promise<number> {
  let q = db.selectFrom('callback_deliveries').where('project_id', '=', pid);
  if (status) q = q.where('status', '=', status as 'pending');
  const row = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

async function waitFor(fn: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

export default async function surveyAnswersBench(): Promise<BenchResult[]> {
  // One address sends everything here; the per-address limit would stop the bench, not a crowd.
  SURVEY_LIMITS.answerPerAddress = 1e9;
  const results: BenchResult[] = [];
  const pgUrl = process.env.TEST_DATABASE_URL;
  delete process.env.TEST_DATABASE_URL;
  // The callbacks' receiver: a real HTTP server on a loopback port, exempted from the address check.
  const receiver = await startReceiver();
  const exempt = (c: TestServer['config']) => {
    c.callbacks.allowHosts = [`127.0.0.1:${receiver.port}`];
  };
  try {
    const withMetrics = (c: TestServer['config']) => {
      exempt(c);
      c.ops.metricsToken = METRICS_TOKEN;
    };
    // BENCH_SKIP_SQLITE=1 measures PostgreSQL alone (as tests/bench/databases.ts does).
    const databases: [string, string | undefined][] =
      process.env.BENCH_SKIP_SQLITE === '1' ? [] : [['SQLite', undefined]];
    if (pgUrl) databases.push(['PostgreSQL', pgUrl]);
    for (const [label, url] of databases) {
      if (url) process.env.TEST_DATABASE_URL = url;
      const server = await startServer(exempt);
      const at = label === 'PostgreSQL' ? `${label}${await durability(server)}` : label;
      try {
        results.push(...(await measure(server, at, receiver)));
      } finally {
        await server.close();
      }
      // ANSWER_METRICS=0 leaves the run with metrics on out (while profiling the answers alone).
      if (process.env.ANSWER_METRICS === '0') continue;
      const metered = await startServer(withMetrics);
      try {
        results.push(...(await measureWithMetrics(metered, at)));
      } finally {
        await metered.close();
      }
    }
  } finally {
    await receiver.close();
  }
  return results;
}
