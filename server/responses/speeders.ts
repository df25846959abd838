import { sql } from 'kysely';
import type { Db } from '../db';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import { FLAG_BITS, speederRule, type SpeederRule } from '../../src/domain/quality';
import { SPEEDER_MIN_COMPLETED, SPEEDER_PERCENT_DEFAULT } from '../../src/domain/responses';

// The speeder rule per project (project_quality, migration 020): the median completion time of the
// completed respondents, the threshold it gives, and the speeder bit of every completed respondent
// kept in step with it. The median is taken again when the completions since it pass 2 % of those
// it was taken over (or when the threshold setting changes), and only the respondents on the wrong
// side of a new threshold are rewritten. The median is over every completion, excluded ones included,
// so excluding speeders does not move the line and flag the next ones (docs/decisions/responses.md).

const SPEEDER = FLAG_BITS.speeder;
/** The median is taken again after this share of new completions. */
const RETAKE_SHARE = 0.02;

/** Completed respondents by whole seconds from start to end (the report's timing reads the same). */
async function durations(db: Db, projectId: number) {
  const rows = await db
    .selectFrom('respondents')
    .select([sql<number>`(finished_at - started_at) / 1000`.as('seconds'), sql<number>`count(*)`.as('n')])
    .where('project_id', '=', projectId)
    .where('status', '=', RESPONDENT_STATUS.completed)
    .where('finished_at', 'is not', null)
    .groupBy(sql`1`)
    .execute();
  return rows.map((r) => ({ seconds: Number(r.seconds), n: Number(r.n) }));
}

/** The project's speeder percent (project setting set_speeder_percent). */
export async function speederPercent(db: Db, projectId: number): Promise<number> {
  const row = await db
    .selectFrom('project_settings')
    .select('value')
    .where('project_id', '=', projectId)
    .where('key', '=', 'set_speeder_percent')
    .executeTakeFirst();
  const n = row ? Number(JSON.parse(row.value)) : NaN;
  return Number.isInteger(n) ? n : SPEEDER_PERCENT_DEFAULT;
}

/** The rule as stored (null: not taken yet). */
export async function storedRule(db: Db, projectId: number): Promise<SpeederRule | null> {
  const row = await db
    .selectFrom('project_quality')
    .selectAll()
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    completed: Number(row.median_of),
    medianMs: row.median_ms === null ? null : Number(row.median_ms),
    thresholdMs: row.threshold_ms === null ? null : Number(row.threshold_ms),
    percent: Number(row.percent),
  };
}

/**
 * Takes the median again and moves the speeder bit of the completed respondents whose side of the
 * threshold changed. Answers the new rule.
 */
export async function refreshSpeeders(db: Db, projectId: number, now = Date.now()): Promise<SpeederRule> {
  const [dist, percent] = await Promise.all([durations(db, projectId), speederPercent(db, projectId)]);
  const rule = speederRule(dist, percent);
  const values = {
    completed: 0,
    median_of: rule.completed,
    median_ms: rule.medianMs,
    threshold_ms: rule.thresholdMs,
    percent,
    updated_at: now,
  };
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('project_quality')
      .values({ project_id: projectId, ...values })
      .onConflict((oc) => oc.column('project_id').doUpdateSet(values))
      .execute();
    const completed = trx
      .updateTable('respondents')
      .where('project_id', '=', projectId)
      .where('status', '=', RESPONDENT_STATUS.completed)
      .where('finished_at', 'is not', null);
    const duration = sql<number>`finished_at - started_at`;
    const bit = sql<number>`flags & ${SPEEDER}`;
    if (rule.thresholdMs === null) {
      await completed
        .set({ flags: sql`flags - ${SPEEDER}` })
        .where(bit, '<>', 0)
        .execute();
      return;
    }
    await completed
      .set({ flags: sql`flags + ${SPEEDER}` })
      .where(duration, '<', rule.thresholdMs)
      .where(bit, '=', 0)
      .execute();
    await completed
      .set({ flags: sql`flags - ${SPEEDER}` })
      .where(duration, '>=', rule.thresholdMs)
      .where(bit, '<>', 0)
      .execute();
  });
  return rule;
}

/**
 * One more completion: counted, and the median taken again when it is due. Answers the rule the
 * completing respondent is judged by.
 */
export async function ruleAfterCompletion(db: Db, projectId: number, now = Date.now()): Promise<SpeederRule> {
  const row = await db
    .updateTable('project_quality')
    .set({ completed: sql`completed + 1` })
    .where('project_id', '=', projectId)
    .returningAll()
    .executeTakeFirst();
  if (!row) return refreshSpeeders(db, projectId, now);
  const since = Number(row.completed);
  const of = Number(row.median_of);
  const due =
    of + since >= SPEEDER_MIN_COMPLETED &&
    (of < SPEEDER_MIN_COMPLETED || since >= Math.max(1, Math.ceil(of * RETAKE_SHARE)));
  if (due) return refreshSpeeders(db, projectId, now);
  return {
    completed: of,
    medianMs: row.median_ms === null ? null : Number(row.median_ms),
    thresholdMs: row.threshold_ms === null ? null : Number(row.threshold_ms),
    percent: Number(row.percent),
  };
}
