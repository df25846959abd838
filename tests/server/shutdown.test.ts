import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db';
import { stopGracefully } from '../../server/ops/shutdown';
import { writeDelivery } from '../../server/callbacks/deliveries';
import { API, createPgDatabase, startServer, type TestServer } from './helpers';
import { freePort, refused, startChild, type ChildServer } from './child-server';
import { insertSurveyProject, surveyContent, GOOD } from './survey-fixtures';
import { startReceiver } from './callback-receiver';

// The readiness sequence of a real process (server/ops/shutdown.ts): /healthz and /readyz answer
// without a session; on SIGTERM /readyz turns 503 at once while every other call is still served;
// after SHUTDOWN_DELAY_MS the listener closes (new connections refused); a call in flight then
// still finishes, its answer is stored; the process exits 0. And the callback sender's claims left
// when the stop's time is up are released for another process.

// Long enough for the checks at the first 503 to finish before the listener closes, on a loaded machine.
const DELAY_MS = 3000;

let dataDir: string;
let pg: Awaited<ReturnType<typeof createPgDatabase>> | null = null;
let child: ChildServer | null = null;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-shutdown-'));
  if (process.env.TEST_DATABASE_URL) pg = await createPgDatabase(process.env.TEST_DATABASE_URL);
});
afterAll(async () => {
  child?.proc.kill('SIGKILL');
  await pg?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A GET on a connection of its own (a probe's way: nothing kept alive between two). */
const get = (port: number, p: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; text: string; connection?: string }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: p, agent: false, headers }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, text, connection: res.headers.connection }));
      })
      .on('error', reject);
  });

/** A POST whose body is sent in two halves: in flight from the first half until `finish()`. */
function slowPost(port: number, p: string, headers: Record<string, string>, body: string) {
  const bytes = Buffer.from(body);
  const req = http.request({
    host: '127.0.0.1',
    port,
    path: p,
    method: 'POST',
    agent: false,
    headers: { ...headers, 'content-type': 'application/json', 'content-length': bytes.length },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
  });
  req.write(bytes.subarray(0, 10));
  return { finish: () => req.end(bytes.subarray(10)), response };
}

describe('the graceful stop of a real process', () => {
  it('turns /readyz 503 at SIGTERM, serves on for the delay, closes the listener, finishes the call in flight, exits 0', async () => {
    const port = await freePort();
    child = await startChild(port, {
      DATA_DIR: dataDir,
      SHUTDOWN_DELAY_MS: String(DELAY_MS),
      SHUTDOWN_TIMEOUT_MS: '20000',
      ...(pg ? { DATABASE_URL: pg.url } : {}),
    });
    // The survey, written beside the running server into its database.
    const handle = openDatabase({ databaseUrl: pg?.url ?? null, dataDir });
    const { link } = await insertSurveyProject(fakeServer(handle.db), surveyContent());
    await handle.db.destroy();

    expect(await get(port, '/healthz')).toMatchObject({ status: 200, text: 'ok\n' });
    expect(await get(port, '/readyz')).toMatchObject({ status: 200, text: 'ok\n' });
    const started = await fetch(`http://127.0.0.1:${port}${API}/survey/${link}/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const { token } = (await started.json()) as { token: string };
    const respondent = { 'x-respondent-token': token };

    // A call in flight: its headers are in, its body not yet.
    const inFlight = slowPost(
      port,
      `${API}/survey/answer`,
      respondent,
      JSON.stringify({ at: 0, questionId: 'scr', reply: GOOD.scr }),
    );
    await new Promise((r) => setTimeout(r, 300));

    const signalled = Date.now();
    child.proc.kill('SIGTERM');
    const seen: { at: number; what: string }[] = [];
    // Checked once, at the first 503 (right after the signal, well before the listener closes).
    let checked = false;
    for (;;) {
      const at = Date.now();
      if (await refused(port)) {
        seen.push({ at, what: 'refused' });
        break;
      }
      const ready = await get(port, '/readyz').catch(() => ({ status: 0, text: '', connection: '' }));
      seen.push({ at, what: `readyz ${ready.status} ${ready.text.trim()}`.trim() });
      if (ready.status === 503 && !checked) {
        checked = true;
        // Still serving everything else: the process is alive, a respondent's call is answered; each
        // answer now closes its connection, so a balancer keeps none open to a stopping process.
        expect((await get(port, '/healthz')).status).toBe(200);
        const session = await get(port, `${API}/survey/session`, respondent);
        expect(session.status).toBe(200);
        expect(session.connection).toBe('close');
      }
      if (at - signalled > 15_000) throw new Error(`no stop: ${JSON.stringify(seen)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const kinds = seen.map((s) => s.what);
    const firstNotReady = kinds.indexOf('readyz 503 not ready: stopping');
    // 503 before the listener closes, and never a 200 after the first 503.
    expect(firstNotReady, JSON.stringify(seen)).toBeGreaterThanOrEqual(0);
    // After it: 503s, then (a probe caught by the closing listener, reset) and the refusal.
    const tail = kinds.slice(firstNotReady);
    const closing = tail.findIndex((k) => k !== 'readyz 503 not ready: stopping');
    expect(
      tail.slice(closing).every((k) => k === 'readyz 0' || k === 'refused'),
      JSON.stringify(seen),
    ).toBe(true);
    // The listener closed only after the delay.
    expect(seen.at(-1)!.at - signalled).toBeGreaterThanOrEqual(DELAY_MS);
    // The process waits for the call in flight, which then finishes and is answered.
    expect(child.proc.exitCode).toBeNull();
    inFlight.finish();
    const answered = await inFlight.response;
    expect(answered.status, answered.body).toBe(200);
    expect(JSON.parse(answered.body)).toMatchObject({ status: 'started', answered: 1 });
    expect(await child.exited).toBe(0);

    // What it answered is stored.
    const after = openDatabase({ databaseUrl: pg?.url ?? null, dataDir });
    const rows = await after.db
      .selectFrom('respondent_answers')
      .select(['question_id', 'answer_id'])
      .execute();
    expect(rows).toEqual([{ question_id: 'scr', answer_id: 'yes' }]);
    await after.db.destroy();
  });
});

describe('the callback sender at the stop', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    // Closed by the test itself; the temporary database and folder go here.
    await server.close().catch(() => {});
  });

  it('releases the claim of a call still out when the stop’s time is up, so another process sends it at once', async () => {
    const receiver = await startReceiver(() => 'hang');
    try {
      server.app.config.callbacks.allowHosts = [`127.0.0.1:${receiver.port}`];
      const { pid } = await insertSurveyProject(server, surveyContent());
      // A second process's view of the same database, to look at the row after this one stopped.
      const id = crypto.randomUUID();
      await writeDelivery(server.app.db, {
        id,
        projectId: pid,
        blockId: 'B1',
        respondentId: null,
        url: receiver.url,
        body: '{}',
        test: true,
        at: Date.now(),
      });
      const { wakeSender } = await import('../../server/callbacks/sender');
      wakeSender(server.app.db);
      const deadline = Date.now() + 10_000;
      while (receiver.received.length === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(receiver.received).toHaveLength(1);

      const onPostgres = !!process.env.TEST_DATABASE_URL;
      const look = onPostgres ? null : openDatabase({ databaseUrl: null, dataDir: server.config.dataDir });
      const code = await stopGracefully(server.app, { delayMs: 0, timeoutMs: 300 });
      expect(code).toBe(0);
      if (look) {
        const row = await look.db
          .selectFrom('callback_deliveries')
          .select(['status', 'lease_until', 'attempts'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        expect(row).toEqual({ status: 'pending', lease_until: null, attempts: 0 });
        await look.db.destroy();
      } else {
        const { default: pgLib } = await import('pg');
        const client = new pgLib.Client({ connectionString: server.config.databaseUrl! });
        await client.connect();
        const { rows } = await client.query(
          'select status, lease_until, attempts from callback_deliveries where id = $1',
          [id],
        );
        await client.end();
        expect(rows).toEqual([{ status: 'pending', lease_until: null, attempts: 0 }]);
      }
    } finally {
      await receiver.close();
    }
  });
});

/** What insertSurveyProject needs of a TestServer, over a database opened here. */
function fakeServer(db: Db): TestServer {
  return {
    app: { db } as TestServer['app'],
    createOrganization: async () =>
      (
        await db
          .insertInto('organizations')
          .values({ name: 'Org', type: 1, category_id: null, created_at: Date.now() })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
  } as TestServer;
}
