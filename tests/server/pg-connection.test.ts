import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startServer, type TestServer } from './helpers';
import { Role } from '../../src/domain/roles';

// PostgreSQL only (CI runs the server suite on it): when the database drops the server's idle
// connections, the server logs it, opens new ones and keeps answering instead of crashing.
describe.runIf(!!process.env.TEST_DATABASE_URL)('losing PostgreSQL connections', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.close());

  it('keeps answering after its idle connections are terminated', async () => {
    const s = await server.as(Role.Researcher);
    expect((await server.call('GET', `/user?uid=${s.user.id}`, { session: s })).status).toBe(200);
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const database = new URL(server.config.databaseUrl!).pathname.slice(1);
    const { rowCount } = await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [database],
    );
    await admin.end();
    expect(rowCount).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 200));
    expect((await server.call('GET', `/user?uid=${s.user.id}`, { session: s })).status).toBe(200);
  });
});
