import crypto from 'node:crypto';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import { startServer, type TestServer } from '../server/helpers';
import { insertSurveyProject } from '../server/survey-fixtures';
import { newAnswer, newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';
import { ProjectStatus } from '../../src/domain/projects';
import { startRespondent } from '../../server/survey/respond';
import { cityIds } from '../../server/data/cities';
import { EDUCATION_LEVELS } from '../../src/domain/lookups';
import { SURVEY_LIMITS } from '../../server/routes/survey';
import type { BenchResult } from './run';
import { startReceiver, type Receiver } from '../server/callback-receiver';
import { writeDelivery } from '../../server/callbacks/deliveries';
import { wakeSender } from '../../server/callbacks/sender';

// Answer submission under load (DESIGN.md 7: ≥ 50 % of the req/s of a bare Fastify route that writes
// the same row on the same database, p99 ≤ 50 ms). 100 autocannon connections answering, page by page, the
// 30-question survey of 4 000 started respondents (every request a new page: a write), against the real server;
// the bare route, in the same process on the same database, inserts one respondent_answers row. Both
// run in the same bench, one after the other. SQLite always; PostgreSQL when TEST_DATABASE_URL is set.

export const title = 'Respondents: answer submission under 100 connections (autocannon)';

// autocannon ships no types: the little of its API used here.
export interface Request {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: Request, context: Record<string, unknown>) => Request;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}
export interface Options extends Request {
  url: string;
  connections?: number;
  duration?: number;
  overallRate?: number;
  requests?: Request[];
}
export interface Result {
  requests: { average: number; total: number };
  latency: { p99: number };
  '2xx': number;
  non2xx: number;
}
export const autocannon = createRequire(import.meta.url)('autocannon') as (
  o: Options,
) => Promise<Result> & { stop: () => void };

const CONNECTIONS = 100;
const SECONDS = 8;
const PAGES = 30;
const PER_CONNECTION = 40;
/** Pages per block in the callbacks' run (6 blocks, each with a callbackUrl). */
const CALLBACK_BLOCK = 5;
/** Deliveries written at once to time the sender. */
const CALLBACK_DELIVERIES = 2000;

/** Runs autocannon; `cpu` is this process's CPU time per request (server, driver and autocannon in
 * one process), which a busy shared machine disturbs much less than req/s. */
async function run(opts: Options) {
  const before = process.cpuUsage();
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts });
  const used = process.cpuUsage(before);
  const cpu = (used.user + used.system) / 1000 / Math.max(1, result.requests.total);
  return { ...result, cpu: Math.round(cpu * 100) / 100 };
}

/** With ANSWER_CPU_PROFILE=<prefix>, the answer run is profiled into <prefix>-<database>.cpuprofile
 * (open it in Chrome's DevTools): only the answers, not the setup nor the bare route. */
async function profiled<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const prefix = process.env.ANSWER_CPU_PROFILE;
  if (!prefix) return fn();
  const session = new Session();
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

/** The 30-question survey: one block, or (callbacks) blocks of CALLBACK_BLOCK pages, each calling `callbackUrl`. */
export function benchContent(callbackUrl?: string) {
  const questions = Array.from({ length: PAGES }, (_, i) =>
    newQuestion({
      id: `q${i}`,
      text: `Question ${i}`,
      answers: [newAnswer({ id: `q${i}a`, text: 'A' }), newAnswer({ id: `q${i}b`, text: 'B' })],
    }),
  );
  const blocks = callbackUrl
    ? Array.from({ length: PAGES / CALLBACK_BLOCK }, (_, b) =>
        newBlock({ callbackUrl, questions: questions.slice(b * CALLBACK_BLOCK, (b + 1) * CALLBACK_BLOCK) }),
      )
    : [newBlock({ questions })];
  return { questionnaires: [newQuestionnaire({ id: 'Q1', blocks })], portraits: [] };
}

/** Starts 4 000 respondents of the project (as a game's players come), PER_CONNECTION per connection. */
export async function startRespondents(server: TestServer, pid: number) {
  const db = server.app.db;
  const project = { id: pid, status: ProjectStatus.OnRotation, template: 'directLink' };
  const tokens: string[][] = [];
  let firstId = 0;
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
      firstId ||= r.respondentId;
      mine.push(r.token);
    }
    tokens.push(mine);
  }
  return { tokens, firstId };
}

/**
 * 100 connections answering the next page of a respondent each, SECONDS long. Breadth first (every
 * respondent's first page, then every second page…) or, `deep`, a respondent's pages one after the
 * other as a person answers them, so that blocks get completed within the run.
 */
function answerRun(server: TestServer, label: string, tokens: string[][], deep = false) {
  // Every request answers the next page of a respondent with no answer in flight (autocannon clears
  // a connection's context before each request, so the walk is kept here): first answers, each one
  // a write, as respondents make them. A respondent's last page completes them.
  const walkers = tokens.flat().map((token) => ({ token, at: 0 }));
  const free = walkers.slice();
  return profiled(label, () =>
    run({
      url: `${server.url}/api/v1/service/survey/answer`,
      requests: [
        {
          method: 'POST',
          setupRequest: (req, context) => {
            const w = free.shift();
            if (!w) throw new Error('every respondent has answered every page');
            context.walker = w;
            const at = w.at;
            return {
              ...req,
              headers: { 'content-type': 'application/json', 'x-respondent-token': w.token },
              body: JSON.stringify({ at, questionId: `q${at}`, reply: { answers: [`q${at}a`] } }),
            };
          },
          onResponse: (status, _body, context) => {
            const w = context.walker as { token: string; at: number } | undefined;
            if (!w) return;
            if (status === 200) w.at++;
            if (w.at < PAGES) {
              if (deep) free.unshift(w);
              else free.push(w);
            }
          },
        },
      ],
    }),
  );
}

async function measure(
  server: TestServer,
  label: string,
  receiver: Receiver,
): Promise<{ results: BenchResult[]; bare: number }> {
  const { pid } = await insertSurveyProject(server, benchContent());
  const db = server.app.db;
  const { tokens, firstId } = await startRespondents(server, pid);

  // The bare reference: the same row, the same database, the same process, no checks.
  const bare = Fastify({ logger: false });
  bare.post('/bare', async () => {
    await db
      .insertInto('respondent_answers')
      .values({
        respondent_id: firstId,
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
  const reference = await run({
    url: bareUrl,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ at: 0, questionId: 'q0', reply: { answers: ['q0a'] } }),
  });
  await bare.close();

  const survey = await answerRun(server, label, tokens);

  const ok = survey['2xx'];
  const share = Math.round((survey.requests.average / Math.max(1, reference.requests.average)) * 100);
  const results: BenchResult[] = [
    {
      name: `${label}: bare route, one row`,
      value: Math.round(reference.requests.average),
      unit: 'req/s',
      note: `p99 ${reference.latency.p99} ms; CPU ${reference.cpu} ms a request`,
    },
    {
      name: `${label}: POST /survey/answer`,
      value: Math.round(survey.requests.average),
      unit: 'req/s',
      note: `${share} % of bare (goal ≥ 50 %); p99 ${survey.latency.p99} ms (goal ≤ 50); CPU ${survey.cpu} ms a request; ${ok} answered, ${survey.non2xx} not 2xx`,
    },
    { name: `${label}: answer p99`, value: survey.latency.p99, unit: 'ms', budget: 50 },
    ...(await measureCallbacks(server, label, receiver, reference.requests.average)),
  ];
  return { results, bare: reference.requests.average };
}

/**
 * The same answer run on a server with METRICS_TOKEN set (issue 33: every call timed by route, the
 * answers and group commits counted), against the bare route measured in the same run.
 */
async function measureWithMetrics(server: TestServer, label: string, bare: number): Promise<BenchResult[]> {
  const { pid } = await insertSurveyProject(server, benchContent());
  const { tokens } = await startRespondents(server, pid);
  const survey = await answerRun(server, `${label}-metrics`, tokens);
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
      note: `${share} % of bare (goal ≥ 50 %); p99 ${survey.latency.p99} ms; CPU ${survey.cpu} ms a request; ${survey['2xx']} answered, ${counted} counted by survey_answers_accepted_total`,
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
  const survey = await answerRun(server, `${label}-callbacks`, tokens, true);
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
    note: `best of ${runs(list)}; ${CALLBACK_DELIVERIES} deliveries in ${best(list).seconds.toFixed(1)} s; CPU ${best(list).cpuMs.toFixed(2)} ms a delivery (sender and receiver in one process)${budget ? ` (goal ≥ ${budget})` : ''}`,
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

interface DeliveryRate {
  perSecond: number;
  seconds: number;
  cpuMs: number;
}

/**
 * CALLBACK_DELIVERIES written at once on a fresh server (SQLite, or PostgreSQL while
 * TEST_DATABASE_URL is set), timed from the write until the last is marked delivered.
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
    const started = performance.now();
    const cpu = process.cpuUsage();
    await db.transaction().execute(async (trx) => {
      for (const d of batch) await writeDelivery(trx, d);
    });
    wakeSender(db);
    await waitFor(async () => (await countDeliveries(db, pid, 'delivered')) >= CALLBACK_DELIVERIES, 120_000);
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    return {
      perSecond: Math.round(CALLBACK_DELIVERIES / seconds),
      seconds,
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
    const databases: [string, string | undefined][] = [['SQLite', undefined]];
    if (pgUrl) databases.push(['PostgreSQL', pgUrl]);
    for (const [label, url] of databases) {
      if (url) process.env.TEST_DATABASE_URL = url;
      const server = await startServer(exempt);
      let bare = 0;
      try {
        const measured = await measure(server, label, receiver);
        results.push(...measured.results);
        bare = measured.bare;
      } finally {
        await server.close();
      }
      const metered = await startServer(withMetrics);
      try {
        results.push(...(await measureWithMetrics(metered, label, bare)));
      } finally {
        await metered.close();
      }
    }
  } finally {
    await receiver.close();
  }
  return results;
}
