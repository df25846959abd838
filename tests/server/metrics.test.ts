import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './helpers';
import { METRICS_TOKEN, runWorkload, samples, type Workload } from './metrics-workload';

// GET /metrics (server/ops/metrics.ts): absent unless METRICS_TOKEN is set, then only with the bearer
// token; after a workload its numbers are what happened: answers written (not a resend nor a refusal),
// respondents started and completed, every answer in one group commit, each call's time under its
// route's template, callbacks by result, the outbox's backlog, the pool (PostgreSQL), the process.

describe('without METRICS_TOKEN', () => {
  it('has no /metrics', async () => {
    const server = await startServer();
    try {
      const res = await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer anything' } });
      expect(res.status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

describe('with METRICS_TOKEN', () => {
  let w: Workload;
  let text: string;
  let m: Map<string, number>;
  beforeAll(async () => {
    w = await runWorkload();
    text = await w.scrape();
    m = samples(text);
  });
  afterAll(async () => w?.close());

  it('answers only the bearer of the token', async () => {
    const url = `${w.server.url}/metrics`;
    for (const authorization of [
      undefined,
      'Bearer wrong-token',
      `Basic ${Buffer.from(`x:${METRICS_TOKEN}`).toString('base64')}`,
      `Bearer ${METRICS_TOKEN}x`,
    ]) {
      const res = await fetch(url, { headers: authorization ? { authorization } : {} });
      expect(res.status, authorization).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(await res.text()).toBe('unauthorized\n');
    }
    const res = await fetch(url, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('counts the answers written, the respondents started and completed, and the answers of group commits', () => {
    expect(m.get('survey_answers_accepted_total')).toBe(w.did.answers);
    expect(m.get('survey_respondents_started_total')).toBe(w.did.started);
    expect(m.get('survey_respondents_completed_total')).toBe(w.did.completed);
    // On PostgreSQL a page that completes a block with a callback is written in a transaction of its
    // own (the answer and its delivery together), outside the groups: the six block completions.
    const alone = process.env.TEST_DATABASE_URL ? w.did.delivered + w.did.retried : 0;
    expect(m.get('survey_answer_group_commit_size_sum')).toBe(w.did.answers - alone);
    expect(m.get('survey_answer_group_commit_size_bucket{le="64"}')).toBe(
      m.get('survey_answer_group_commit_size_count'),
    );
  });

  it('times every call under its route’s template and status, never under a path with a token in it', () => {
    const answer = (status: number) =>
      m.get(
        `http_request_duration_seconds_count{method="POST",route="/api/v1/service/survey/answer",status_code="${status}"}`,
      );
    expect(answer(200)).toBe(w.did.answers + w.did.resent);
    expect(answer(400)).toBe(w.did.refused);
    expect(
      m.get(
        'http_request_duration_seconds_count{method="POST",route="/api/v1/service/survey/:token/start",status_code="200"}',
      ),
    ).toBe(w.did.started);
    expect(
      m.get('http_request_duration_seconds_count{method="GET",route="unmatched",status_code="404"}'),
    ).toBe(1);
    const bucket = m.get(
      'http_request_duration_seconds_bucket{le="+Inf",method="POST",route="/api/v1/service/survey/answer",status_code="200"}',
    );
    expect(bucket).toBe(answer(200));
    for (const secret of [w.link, ...w.tokens, METRICS_TOKEN]) expect(text).not.toContain(secret);
  });

  it('reports block callbacks by result and the outbox’s backlog', () => {
    expect(m.get('survey_callback_deliveries_total{result="delivered"}')).toBe(w.did.delivered);
    expect(m.get('survey_callback_deliveries_total{result="retry"}')).toBe(w.did.retried);
    expect(m.get('survey_callback_outbox_pending')).toBe(w.did.retried);
    expect(m.get('survey_callback_outbox_oldest_pending_age_seconds')).toBeGreaterThan(0);
  });

  it('reports the event loop’s lag, the process and, on PostgreSQL, the pool', () => {
    expect(m.get('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(m.get('nodejs_eventloop_lag_p99_seconds')).toBeGreaterThan(0);
    expect(m.get('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(m.has('process_cpu_seconds_total')).toBe(true);
    if (process.env.TEST_DATABASE_URL) {
      expect(m.get('survey_db_pool_connections{state="max"}')).toBe(10);
      // The workload's queries opened connections, in use or idle at the scrape's moment.
      const open =
        m.get('survey_db_pool_connections{state="in_use"}')! +
        m.get('survey_db_pool_connections{state="idle"}')!;
      expect(open).toBeGreaterThanOrEqual(1);
      expect(m.get('survey_db_pool_waiting_clients')).toBeGreaterThanOrEqual(0);
    } else expect(text).not.toContain('survey_db_pool');
  });
});
