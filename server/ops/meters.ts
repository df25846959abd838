import { Counter, Histogram, type Registry } from 'prom-client';
import type { Db } from '../db';

// The survey's own counters, moved from where things happen (server/survey, the callback sender)
// by one call each. They exist only for a database whose app serves /metrics (METRICS_TOKEN set:
// ./metrics.ts registers them); otherwise each call is one WeakMap lookup that finds nothing.

interface Meters {
  answers: Counter;
  started: Counter;
  completed: Counter;
  groupSize: Histogram;
  deliveries: Counter<'result'>;
}

const meters = new WeakMap<Db, Meters>();

/** Registers the survey's counters in `registry` and moves them for `db` from now on. */
export function registerMeters(db: Db, registry: Registry): void {
  meters.set(db, {
    answers: new Counter({
      name: 'survey_answers_accepted_total',
      help: 'Pages of answers written (a resent page that changes nothing is not counted).',
      registers: [registry],
    }),
    started: new Counter({
      name: 'survey_respondents_started_total',
      help: 'Respondents started (link, game SDK, demo).',
      registers: [registry],
    }),
    completed: new Counter({
      name: 'survey_respondents_completed_total',
      help: 'Respondents who completed the questionnaire.',
      registers: [registry],
    }),
    groupSize: new Histogram({
      name: 'survey_answer_group_commit_size',
      help: 'Answers written together in one group commit (one transaction on SQLite, one statement on PostgreSQL).',
      buckets: [1, 2, 4, 8, 16, 32, 64],
      registers: [registry],
    }),
    deliveries: new Counter({
      name: 'survey_callback_deliveries_total',
      help: 'Block callback attempts by result: delivered, retry (to be tried again), failed (410), gave_up, refused (address check).',
      labelNames: ['result'],
      registers: [registry],
    }),
  });
}

export function forgetMeters(db: Db): void {
  meters.delete(db);
}

/** A page of answers written; `completed` when it ended the questionnaire with a completion. */
export function countAnswer(db: Db, outcome: string): void {
  const m = meters.get(db);
  if (!m) return;
  m.answers.inc();
  if (outcome === 'completed') m.completed.inc();
}

export function countStart(db: Db): void {
  meters.get(db)?.started.inc();
}

/** A group commit of `size` answers. */
export function countGroup(db: Db, size: number): void {
  meters.get(db)?.groupSize.observe(size);
}

const RESULTS: Record<string, string> = {
  delivered: 'delivered',
  pending: 'retry',
  failed: 'failed',
  'gave-up': 'gave_up',
  refused: 'refused',
};

/** A callback attempt whose outcome left the delivery in `status`. */
export function countDelivery(db: Db, status: string): void {
  meters.get(db)?.deliveries.inc({ result: RESULTS[status] ?? status });
}
