import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import type { Walker } from './answer-respondents';

// autocannon driving respondents page by page (survey-answers.bench.ts, nginx-answers.bench.ts,
// answers-beside.ts).

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

export const CONNECTIONS = 100;
export const SECONDS = 8;
/** The bench survey's pages (answer-respondents.ts benchContent). */
export const PAGES = 30;

/** Runs autocannon; `cpu` is this process's CPU time per request (server, driver and autocannon in
 * one process, or autocannon alone against other processes), which a busy shared machine disturbs
 * much less than req/s. */
export async function run(opts: Options) {
  const before = process.cpuUsage();
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts });
  const used = process.cpuUsage(before);
  const cpu = (used.user + used.system) / 1000 / Math.max(1, result.requests.total);
  return { ...result, cpu: Math.round(cpu * 100) / 100 };
}

/** With ANSWER_CPU_PROFILE=<prefix>, the answer run is profiled into <prefix>-<label>.cpuprofile
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

/**
 * 100 connections answering the next page of a respondent each, SECONDS long, at `base` (a server or
 * a balancer). Breadth first (every respondent's next page in turn, as a crowd answers) or, `deep`, a
 * respondent's pages one after the other as a person answers them, so that blocks get completed
 * within the run.
 */
export function answerRun(base: string, label: string, walkers: Walker[], deep = false) {
  // Every request answers the next page of a respondent with no answer in flight; a respondent's
  // last page completes them.
  const free = walkers.slice();
  return profiled(label, () =>
    run({ url: `${base}/api/v1/service/survey/answer`, requests: [nextPageRequest(free, deep)] }),
  );
}

/** The next page's answer of the respondent at the head of `free` (taken off it until answered). */
export function nextPage(free: Walker[]): { walker: Walker; headers: Record<string, string>; body: string } {
  const walker = free.shift();
  if (!walker) throw new Error('every respondent has answered every page');
  const at = walker.at;
  return {
    walker,
    headers: { 'content-type': 'application/json', 'x-respondent-token': walker.token },
    body: JSON.stringify({ at, questionId: `q${at}`, reply: { answers: [`q${at}a`] } }),
  };
}

/**
 * After the answer: the respondent moves on when it was taken (200) and goes back to `free` until
 * their last page (at its head when `deep`, so that one respondent's pages follow each other).
 */
export function answered(free: Walker[], walker: Walker, status: number, deep = false): void {
  if (status === 200) walker.at++;
  if (walker.at < PAGES) {
    if (deep) free.unshift(walker);
    else free.push(walker);
  }
}

/**
 * autocannon's request for the next page of a respondent taken from `free` (autocannon clears a
 * connection's context before each request, so the walk is kept there): each one a write, as
 * respondents make them.
 */
export function nextPageRequest(free: Walker[], deep = false): Request {
  return {
    method: 'POST',
    setupRequest: (req, context) => {
      const { walker, headers, body } = nextPage(free);
      context.walker = walker;
      return { ...req, headers, body };
    },
    onResponse: (status, _body, context) => {
      const w = context.walker as Walker | undefined;
      if (w) answered(free, w, status, deep);
    },
  };
}
