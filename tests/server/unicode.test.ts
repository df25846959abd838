import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startServer, type TestServer } from './helpers';

// lower() folds every script on both databases, so search and sort agree on SQLite and PostgreSQL.
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

it('lower() folds Cyrillic and other scripts', async () => {
  const { rows } = await sql<{ v: string }>`select lower(${'МАРИЯ Ёлкина ÄÖ'}) as v`.execute(server.app.db);
  expect(rows[0].v).toBe('мария ёлкина äö');
});
