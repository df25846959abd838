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

// Answer submission under load (DESIGN.md 7: ≥ 50 % of the req/s of a bare Fastify route that writes
// the same row on the same database, p99 ≤ 50 ms). 100 autocannon connections answering, page by page, the
// 30-question survey of 4 000 started respondents (every request a new page: a write), against the real server;
// the bare route, in the same process on the same database, inserts one respondent_answers row. Both
// run in the same bench, one after the other. SQLite always; PostgreSQL when TEST_DATABASE_URL is set.

export const title = 'Respondents: answer submission under 100 connections (autocannon)';

// autocannon ships no types: the little of its API used here.
interface Request {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: Request, context: Record<string, unknown>) => Request;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}
interface Options extends Request {
  url: string;
  connections?: number;
  duration?: number;
  requests?: Request[];
}
interface Result {
  requests: { average: number; total: number };
  latency: { p99: number };
  '2xx': number;
  non2xx: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (o: Options) => Promise<Result>;

const CONNECTIONS = 100;
const SECONDS = 8;
const PAGES = 30;
const PER_CONNECTION = 40;

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

async function measure(server: TestServer, label: string): Promise<BenchResult[]> {
  const content = {
    questionnaires: [
      newQuestionnaire({
        id: 'Q1',
        blocks: [
          newBlock({
            questions: Array.from({ length: PAGES }, (_, i) =>
              newQuestion({
                id: `q${i}`,
                text: `Question ${i}`,
                answers: [newAnswer({ id: `q${i}a`, text: 'A' }), newAnswer({ id: `q${i}b`, text: 'B' })],
              }),
            ),
          }),
        ],
      }),
    ],
    portraits: [],
  };
  const { pid } = await insertSurveyProject(server, content);
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

  // Every request answers the next page of a respondent with no answer in flight (autocannon clears
  // a connection's context before each request, so the walk is kept here): first answers, each one
  // a write, as respondents make them. A respondent's last page completes them.
  const walkers = tokens.flat().map((token) => ({ token, at: 0 }));
  const free = walkers.slice();
  const survey = await profiled(label, () =>
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
            if (w.at < PAGES) free.push(w);
          },
        },
      ],
    }),
  );
  const ok = survey['2xx'];
  const share = Math.round((survey.requests.average / Math.max(1, reference.requests.average)) * 100);
  return [
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
  ];
}

export default async function surveyAnswersBench(): Promise<BenchResult[]> {
  // One address sends everything here; the per-address limit would stop the bench, not a crowd.
  SURVEY_LIMITS.answerPerAddress = 1e9;
  const results: BenchResult[] = [];
  const pgUrl = process.env.TEST_DATABASE_URL;
  delete process.env.TEST_DATABASE_URL;
  const sqlite = await startServer();
  try {
    results.push(...(await measure(sqlite, 'SQLite')));
  } finally {
    await sqlite.close();
  }
  if (pgUrl) {
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
