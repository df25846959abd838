import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';
import { startServer, type TestServer } from '../server/helpers';
import { savePictures } from '../../server/pictures/store';
import type { BenchResult } from './run';

// Pictures from the database (issue 33): GET /api/v1/service/pictures/<sha256>.png of a 500 KB
// picture under 100 connections, against @fastify/static serving the same file from a folder in a
// bare Fastify, in the same run, one after the other. Goal: at least 50 % of @fastify/static's
// req/s. SQLite always; PostgreSQL when TEST_DATABASE_URL is set.

export const title = 'Pictures: a 500 KB picture under 100 connections (autocannon)';

interface Result {
  requests: { average: number; total: number };
  latency: { p99: number };
  throughput: { average: number };
  '2xx': number;
  non2xx: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (o: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  workers?: number;
}) => Promise<Result>;

const CONNECTIONS = 100;
const SECONDS = 8;
const SIZE = 500 * 1024;

// The client in a worker thread of its own: reading 500 KB answers on the server's thread would
// measure the client as much as the server.
const run = (url: string, headers?: Record<string, string>) =>
  autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers, workers: 1 });

/** A PNG's signature followed by random bytes: 500 KB that compress no more than a real picture. */
function picture(): Buffer {
  const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
  return Buffer.concat([png, crypto.randomBytes(SIZE - png.length)]);
}

async function measure(server: TestServer, label: string): Promise<BenchResult[]> {
  const bytes = picture();
  const hash = crypto.createHash('sha256').update(bytes).digest('hex');
  await savePictures(server.app.db, [{ hash, ext: 'png', bytes }], { userId: null, at: Date.now() });

  // The reference: the same bytes as a file, served by @fastify/static in a bare Fastify.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-static-'));
  fs.writeFileSync(path.join(dir, `${hash}.png`), bytes);
  const bare = Fastify({ logger: false });
  await bare.register(fastifyStatic, { root: dir, prefix: '/pictures/' });
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const barePort = (bare.server.address() as { port: number }).port;
  let reference: Result;
  try {
    reference = await run(`http://127.0.0.1:${barePort}/pictures/${hash}.png`);
  } finally {
    await bare.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const url = `${server.url}/api/v1/service/pictures/${hash}.png`;
  const served = await run(url);
  const revalidated = await run(url, { 'if-none-match': `"${hash}"` });
  const share = Math.round((served.requests.average / Math.max(1, reference.requests.average)) * 100);
  const mb = (r: Result) => Math.round(r.throughput.average / 1024 / 1024);
  return [
    {
      name: `${label}: @fastify/static, the same file`,
      value: Math.round(reference.requests.average),
      unit: 'req/s',
      note: `p99 ${reference.latency.p99} ms; ${mb(reference)} MB/s; ${reference.non2xx} not 2xx`,
    },
    {
      name: `${label}: GET /pictures/<hash>.png from the database`,
      value: Math.round(served.requests.average),
      unit: 'req/s',
      note: `${share} % of @fastify/static (goal ≥ 50 %); p99 ${served.latency.p99} ms; ${mb(served)} MB/s; ${served.non2xx} not 2xx`,
    },
    {
      name: `${label}: the same with If-None-Match (304)`,
      value: Math.round(revalidated.requests.average),
      unit: 'req/s',
      note: `p99 ${revalidated.latency.p99} ms; ${revalidated.non2xx} answered 304`,
    },
  ];
}

export default async function picturesBench(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const pgUrl = process.env.TEST_DATABASE_URL;
  delete process.env.TEST_DATABASE_URL;
  try {
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
  } finally {
    if (pgUrl) process.env.TEST_DATABASE_URL = pgUrl;
  }
  return results;
}
