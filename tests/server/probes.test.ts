import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startServer, type TestServer } from './helpers';
import { stopGracefully } from '../../server/ops/shutdown';

// GET /healthz and GET /readyz as a balancer asks them: no session, "ok" or what is not ready and
// nothing more; /readyz refuses while a migration this release knows is missing or the database does
// not answer. And the stop's timeout: a call still running when SHUTDOWN_TIMEOUT_MS is up is cut,
// and the stop says so with exit code 1.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.close().catch(() => {}));

const probe = async (p: string) => {
  const res = await fetch(server.url + p);
  return { status: res.status, text: await res.text(), headers: res.headers };
};

it('answers both probes without a session, saying only "ok", never cached', async () => {
  for (const p of ['/healthz', '/readyz']) {
    const res = await probe(p);
    expect(res.status).toBe(200);
    expect(res.text).toBe('ok\n');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
  }
});

it('is not ready while a migration this release knows is not applied, and ready again once it is', async () => {
  const db = server.app.db;
  const row = await sql<{
    name: string;
    timestamp: string;
  }>`select name, timestamp from kysely_migration where name = '022-pictures'`.execute(db);
  await sql`delete from kysely_migration where name = '022-pictures'`.execute(db);
  try {
    expect(await probe('/readyz')).toMatchObject({ status: 503, text: 'not ready: migrations\n' });
    // Alive all the same: a liveness probe must not restart a process that waits for its database.
    expect((await probe('/healthz')).status).toBe(200);
  } finally {
    await sql`insert into kysely_migration (name, timestamp) values (${row.rows[0].name}, ${row.rows[0].timestamp})`.execute(
      db,
    );
  }
  expect((await probe('/readyz')).status).toBe(200);
});

it('cuts a call still running at the timeout and ends with exit code 1; then the database is gone and /readyz would say so', async () => {
  // A call in flight that never finishes: its body is never sent whole.
  const req = http.request(`${server.url}/api/v1/service/survey/answer`, {
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/json', 'content-length': 100 },
  });
  const failed = new Promise<string>((resolve) =>
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? '')),
  );
  req.write('{"at":');
  await new Promise((r) => setTimeout(r, 200));
  expect(await stopGracefully(server.app, { delayMs: 0, timeoutMs: 500 })).toBe(1);
  expect(await failed).toBe('ECONNRESET');
  const { notReady } = await import('../../server/ops/probes');
  expect(await notReady(server.app.db, { stopping: false, deadline: 0 })).toBe('database');
});
