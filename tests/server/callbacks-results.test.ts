import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers';
import { callbackContent, insertSurveyProject } from './callback-receiver';
import { writeDelivery } from '../../server/callbacks/deliveries';
import { outcome, recordResults } from '../../server/callbacks/sender';

// The sender writes the results of the calls that finished together in one statement (issue 34,
// part 4: one round trip on PostgreSQL instead of one per delivery): every field of each result as
// outcome() made it, and only for a delivery whose claim is still the sender's. SQLite, or
// PostgreSQL with TEST_DATABASE_URL.

let server: TestServer;
beforeAll(async () => {
  server = await startServer((c) => {
    // Nothing sends here: the test claims and records by hand.
    c.callbacks.sender = false;
  });
});
afterAll(() => server?.close());

it('writes each result whole, and nothing for a delivery whose claim is no longer ours', async () => {
  const db = server.app.db;
  const { pid } = await insertSurveyProject(server, callbackContent('http://example.test/hook'));
  const at = 1_800_000_000_000;
  const ids = ['ok', 'retry', 'gone', 'stolen'].map(() => crypto.randomUUID());
  await db.transaction().execute(async (trx) => {
    for (const [i, id] of ids.entries())
      await writeDelivery(trx, {
        id,
        projectId: pid,
        blockId: `b${i}`,
        respondentId: null,
        url: 'http://example.test/hook',
        body: '{}',
        test: true,
        at,
      });
  });
  // Claimed with a lease (the last one since taken over by another sender with a later lease).
  const lease = at + 60_000;
  await db.updateTable('callback_deliveries').set({ lease_until: lease }).where('id', 'in', ids).execute();
  await db
    .updateTable('callback_deliveries')
    .set({ lease_until: lease + 1 })
    .where('id', '=', ids[3])
    .execute();

  const now = at + 1_000;
  const gaps = [30_000, 60_000];
  const results = [
    {
      row: { id: ids[0], lease_until: lease },
      next: outcome({ kind: 'response', status: 200 }, 0, gaps, 3, now),
    },
    {
      row: { id: ids[1], lease_until: lease },
      next: outcome({ kind: 'error', error: 'ECONNREFUSED – «ошибка»' }, 1, gaps, 3, now),
    },
    {
      row: { id: ids[2], lease_until: lease },
      next: outcome({ kind: 'response', status: 410 }, 0, gaps, 3, now),
    },
    {
      row: { id: ids[3], lease_until: lease },
      next: outcome({ kind: 'response', status: 200 }, 0, gaps, 3, now),
    },
  ];
  await recordResults(db, results);

  const rows = await db
    .selectFrom('callback_deliveries')
    .select([
      'id',
      'status',
      'attempts',
      'last_status_code',
      'last_error',
      'next_attempt_at',
      'delivered_at',
      'lease_until',
    ])
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, { ...r, next_attempt_at: Number(r.next_attempt_at) }]));
  expect(byId.get(ids[0])).toEqual({
    id: ids[0],
    status: 'delivered',
    attempts: 1,
    last_status_code: 200,
    last_error: null,
    next_attempt_at: now,
    delivered_at: now,
    lease_until: null,
  });
  const retry = byId.get(ids[1])!;
  expect(retry).toMatchObject({
    status: 'pending',
    attempts: 2,
    last_status_code: null,
    last_error: 'ECONNREFUSED – «ошибка»',
    delivered_at: null,
    lease_until: null,
  });
  expect(retry.next_attempt_at).toBe(results[1].next.next_attempt_at);
  expect(retry.next_attempt_at).toBeGreaterThan(now);
  expect(byId.get(ids[2])).toMatchObject({
    status: 'failed',
    attempts: 1,
    last_status_code: 410,
    lease_until: null,
  });
  // Another sender holds it now: left as that sender's.
  expect(byId.get(ids[3])).toMatchObject({ status: 'pending', attempts: 0, lease_until: lease + 1 });
});
