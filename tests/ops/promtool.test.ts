import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runWorkload, type Workload } from '../server/metrics-workload';

// Prometheus' own linter on a scrape taken after a workload of every kind (issue 33): `promtool
// check metrics` (Debian's `prometheus` package, installed by .ci/run) checks the text format and
// the naming conventions (counters end in _total, base units such as seconds and bytes, no unit
// words in the wrong place, help on every metric).

const PROMTOOL = process.env.PROMTOOL ?? 'promtool';

let w: Workload;
beforeAll(async () => {
  w = await runWorkload();
});
afterAll(async () => w?.close());

it('passes promtool check metrics', async () => {
  const text = await w.scrape();
  const res = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
  if (res.error)
    throw new Error(`${PROMTOOL} could not run (Debian package prometheus): ${res.error.message}`);
  expect(`${res.stdout}${res.stderr}`).toBe('');
  expect(res.status).toBe(0);
  // The survey's own families are there to be checked.
  for (const name of [
    'http_request_duration_seconds',
    'survey_answers_accepted_total',
    'survey_answer_group_commit_size',
    'survey_callback_outbox_pending',
    'nodejs_eventloop_lag_seconds',
  ])
    expect(text).toContain(`# TYPE ${name} `);
});
