import { sql } from 'kysely';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Db } from '../db';
import { migrationNames } from '../db/migrations';
import type { Lifecycle } from './lifecycle';

// The probes a balancer or an orchestrator asks (Kubernetes' liveness and readiness):
// - GET /healthz: 200 while the process runs and its event loop turns. Restart it when this fails.
// - GET /readyz: 200 only when the database answers, every migration this release knows is applied,
//   and the server is not stopping (SIGTERM turns it 503 at once: ./shutdown.ts). Send it traffic
//   only while this says so.
// Neither needs a session, and neither says more than "ok" or what is not ready: no versions, no
// addresses, no error text, since anyone who can reach the port can ask.

/** A database that takes longer than this to answer is not ready (a probe must not hang). */
const DATABASE_TIMEOUT_MS = 2000;

export interface ProbeOptions {
  db: Db;
  lifecycle: Lifecycle;
}

function answer(reply: FastifyReply, status: number, text: string) {
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .type('text/plain; charset=utf-8')
    .send(`${text}\n`);
}

/** What keeps the server from taking traffic, or null when it is ready. */
export async function notReady(db: Db, lifecycle: Lifecycle): Promise<string | null> {
  if (lifecycle.stopping) return 'stopping';
  let timer: NodeJS.Timeout | undefined;
  try {
    const applied = await Promise.race([
      sql<{ name: string }>`select name from kysely_migration`.execute(db),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), DATABASE_TIMEOUT_MS);
      }),
    ]);
    const names = new Set(applied.rows.map((r) => r.name));
    if (migrationNames().some((n) => !names.has(n))) return 'migrations';
  } catch {
    return 'database';
  } finally {
    clearTimeout(timer);
  }
  // Checked again: a stop that began while the database answered wins.
  return lifecycle.stopping ? 'stopping' : null;
}

export default async function probes(app: FastifyInstance, opts: ProbeOptions) {
  // While stopping, every answer closes its connection: by the time the listener closes, a balancer
  // holds no kept-alive connection to this process that it could send a call on as it closes.
  app.addHook('onRequest', (_req, reply, done) => {
    if (opts.lifecycle.stopping) reply.header('connection', 'close');
    done();
  });
  app.get('/healthz', async (_req, reply) => answer(reply, 200, 'ok'));
  app.get('/readyz', async (_req, reply) => {
    const why = await notReady(opts.db, opts.lifecycle);
    return why ? answer(reply, 503, `not ready: ${why}`) : answer(reply, 200, 'ok');
  });
}

// Not encapsulated (what fastify-plugin marks): the hook above must see every route of the app.
(probes as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
