import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { startServer, type TestServer } from './helpers';
import {
  callbackContent,
  insertSurveyProject,
  startReceiver,
  until,
  type Receiver,
} from './callback-receiver';

// Several servers on one PostgreSQL (issue 24, part 4): two instances of the app on one database,
// each with its own sender, a respondent's requests alternating between them. 200 completions of a
// block with a callback are each delivered exactly once. PostgreSQL only: two SQLite connections in
// one Node process block each other's event loop while one waits for the other's write lock
// (better-sqlite3 waits synchronously), so a call's 5 s timer can fire late and a delivered call be
// retried, which the "exactly once" count would report (receivers de-duplicate by
// X-Survey-Delivery; the claim itself is tested by the crash test and the sender's unit tests).

let a: TestServer;
let b: FastifyInstance;
let bUrl: string;
let receiver: Receiver;

beforeAll(async () => {
  // A little latency, so that both senders have calls in flight at the same time.
  receiver = await startReceiver();
  receiver.delayMs = 20;
  const tune = (c: TestServer['config']) => {
    c.callbacks.allowHosts = [`127.0.0.1:${receiver.port}`];
    c.callbacks.pollMs = 20;
    c.callbacks.retryBaseMs = 100;
  };
  if (!process.env.TEST_DATABASE_URL) return;
  a = await startServer(tune);
  const config = structuredClone(a.config);
  b = await buildApp(config, { logger: false });
  await b.listen({ port: 0, host: '127.0.0.1' });
  bUrl = `http://127.0.0.1:${(b.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await b?.close();
  await a?.close();
  await receiver?.close();
});

it.skipIf(!process.env.TEST_DATABASE_URL)(
  '200 completions over two servers are delivered exactly once each',
  async () => {
    const { pid, link } = await insertSurveyProject(a, callbackContent(receiver.url));
    const bases = [a.url, bUrl];
    const post = async (i: number, p: string, body: unknown, token?: string) => {
      const res = await fetch(`${bases[i % 2]}/api/v1/service${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { 'x-respondent-token': token } : {}) },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      return res.json();
    };
    const N = 200;
    // Twenty respondents at a time; each one's start and answers alternate between the servers.
    for (let k = 0; k < N; k += 20) {
      await Promise.all(
        Array.from({ length: 20 }, async (_, j) => {
          const i = k + j;
          const { token } = await post(i, `/survey/${link}/start`, {});
          await post(
            i + 1,
            '/survey/answer',
            { at: 0, questionId: 'q1', reply: { answers: ['q1a'] } },
            token,
          );
          await post(i, '/survey/answer', { at: 1, questionId: 'q2', reply: { answers: ['q2b'] } }, token);
        }),
      );
    }
    await until(
      async () =>
        Number(
          (
            await a.app.db
              .selectFrom('callback_deliveries')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('project_id', '=', pid)
              .where('status', '=', 'delivered')
              .executeTakeFirstOrThrow()
          ).n,
        ) === N,
      60_000,
      'every delivery delivered',
    );
    await new Promise((r) => setTimeout(r, 500));
    const ids = receiver.received.map((r) => String(r.headers['x-survey-delivery']));
    expect(ids).toHaveLength(N);
    expect(new Set(ids).size).toBe(N);
    const respondents = new Set(receiver.received.map((r) => JSON.parse(r.body).respondent.id));
    expect(respondents.size).toBe(N);
    const rows = await a.app.db
      .selectFrom('callback_deliveries')
      .select(['attempts'])
      .where('project_id', '=', pid)
      .execute();
    expect(rows.every((r) => Number(r.attempts) === 1)).toBe(true);
  },
  120_000,
);
