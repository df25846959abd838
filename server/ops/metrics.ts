import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { poolOf, type Db } from '../db';
import { forgetMeters, registerMeters } from './meters';

// GET /metrics in Prometheus' text format (prom-client), for Prometheus to scrape every process.
// Off unless METRICS_TOKEN is set: then there is no /metrics at all and nothing is measured. With
// it, the call needs `Authorization: Bearer <token>` (the numbers say how busy the platform is).
//
// What it holds (docs/operations.md lists each with what to watch):
// - http_request_duration_seconds{method,route,status_code}: every call's time, by route template;
// - survey_answers_accepted_total, survey_respondents_started_total / _completed_total,
//   survey_answer_group_commit_size, survey_callback_deliveries_total{result}: ./meters.ts;
// - survey_callback_outbox_pending, survey_callback_outbox_oldest_pending_age_seconds: the outbox
//   as the database has it (the same on every process: take max(), not sum());
// - survey_db_pool_connections{state} and survey_db_pool_waiting_clients (PostgreSQL);
// - prom-client's process and Node.js defaults, the event loop's lag among them
//   (nodejs_eventloop_lag_seconds, nodejs_eventloop_lag_p99_seconds).

export interface MetricsOptions {
  db: Db;
  token: string;
}

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const digest = (s: string) => crypto.createHash('sha256').update(s).digest();

/** Whether the request carries the token, compared in constant time. */
function authorized(req: FastifyRequest, expected: Buffer): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return !!m && crypto.timingSafeEqual(digest(m[1]), expected);
}

/** The outbox's numbers, read once per scrape however many gauges ask. */
function outboxReader(db: Db) {
  let last: { at: number; value: Promise<{ pending: number; oldest: number | null }> } | null = null;
  return () => {
    const now = Date.now();
    if (!last || now - last.at > 1000) {
      const value = db
        .selectFrom('callback_deliveries')
        .select((eb) => [eb.fn.countAll<number>().as('pending'), eb.fn.min('created_at').as('oldest')])
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow()
        .then((r) => ({ pending: Number(r.pending), oldest: r.oldest === null ? null : Number(r.oldest) }));
      last = { at: now, value };
      // A failed read is not kept for the next scrape.
      value.catch(() => (last = null));
    }
    return last.value;
  };
}

export default async function metrics(app: FastifyInstance, opts: MetricsOptions) {
  const { db } = opts;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // prom-client's sums of the by-type gauges are gauges named `_total`, which Prometheus' naming
  // keeps for counters (promtool refuses them); sum() over the by-type gauge gives the same number.
  for (const name of [
    'nodejs_active_handles_total',
    'nodejs_active_requests_total',
    'nodejs_active_resources_total',
  ])
    registry.removeSingleMetric(name);
  registerMeters(db, registry);
  app.addHook('onClose', async () => {
    forgetMeters(db);
    registry.clear();
  });

  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request received to its response sent, by route template.',
    labelNames: ['method', 'route', 'status_code'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  // A child per label set, found by one string: prom-client would hash the labels on every call.
  const children = new Map<string, ReturnType<typeof duration.labels>>();
  app.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done) => {
    // The route's template, never the path itself (ids and tokens would make a series each).
    const route = req.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    const key = `${req.method} ${status} ${route}`;
    let child = children.get(key);
    if (!child) children.set(key, (child = duration.labels(req.method, route, String(status))));
    child.observe(reply.elapsedTime / 1000);
    done();
  });

  const outbox = outboxReader(db);
  new Gauge({
    name: 'survey_callback_outbox_pending',
    help: 'Block callback deliveries waiting to be sent (the whole database, the same on every process).',
    registers: [registry],
    async collect() {
      this.set((await outbox()).pending);
    },
  });
  new Gauge({
    name: 'survey_callback_outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest block callback delivery still waiting to be sent; 0 when none waits.',
    registers: [registry],
    async collect() {
      const { oldest } = await outbox();
      this.set(oldest === null ? 0 : Math.max(0, (Date.now() - oldest) / 1000));
    },
  });

  const pool = poolOf(db);
  if (pool) {
    new Gauge({
      name: 'survey_db_pool_connections',
      help: 'PostgreSQL connections of this process by state: in_use, idle, and max (the pool’s size).',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'max' }, pool.options.max ?? 10);
      },
    });
    new Gauge({
      name: 'survey_db_pool_waiting_clients',
      help: 'Queries of this process waiting for a PostgreSQL connection.',
      registers: [registry],
      collect() {
        this.set(pool.waitingCount);
      },
    });
  }

  const expected = digest(opts.token);
  app.get('/metrics', async (req, reply) => {
    reply.header('cache-control', 'no-store');
    if (!authorized(req, expected))
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .type('text/plain; charset=utf-8')
        .send('unauthorized\n');
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}

// Not encapsulated (what fastify-plugin marks): the duration hook must see every route of the app.
(metrics as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
