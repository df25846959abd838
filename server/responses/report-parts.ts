import { sql } from 'kysely';
import type { Db } from '../db';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import type { ProjectContent } from '../../src/domain/content/model';
import type { ReportFilters } from '../../src/domain/reports';
import {
  FIELD_PACE_HOURS,
  QUALITY_FLAGS,
  SPEEDER_MIN_COMPLETED,
  type ReportField,
  type ReportPrice,
  type ReportQuality,
} from '../../src/domain/responses';
import { countsOf, projectPrice } from '../../src/domain/projectPrice';
import { readCalculator, readVkPercent } from '../repos/tariffs';
import { FLAG_BITS } from '../../src/domain/quality';
import { fieldPortrait } from '../../src/domain/fieldProgress';
import { whereFilters } from '../reports/answer-rows';
import { percentOf } from '../reports/shape';
import { EXCLUDED } from './predicate';
import { speederPercent, storedRule } from './speeders';

// The report's two parts of issue 31 (report JSON `quality` and `field`): GROUP BYs whose result is
// bounded by the flags' bits and the portraits, never by the respondents.

/**
 * The "Response quality" card over the report's filters, in counts that each read an index range
 * bounded by what it counts: the excluded (the partial index of the excluded, migration 020), the
 * flagged counted completes by their bit set (the partial index of the flagged), and the counted
 * completes, which the report passes from its own status counts (aggregate.ts: the same respondents,
 * the filters with the exclusion predicate) and which are counted here otherwise. One GROUP BY of
 * every respondent by (excluded, completed, flags) read each one's row from the table, `flags` being
 * in no covering index, and sorted them all: at 100 000 respondents it was the report's costliest
 * part on SQLite (145 of 257 ms, docs/benchmarks.md). The literals (`sql.lit`) let SQLite see that a
 * partial index's condition holds.
 */
export async function qualityCard(
  db: Db,
  projectId: number,
  f: ReportFilters,
  counted?: Promise<number>,
): Promise<ReportQuality> {
  const people = () =>
    whereFilters(db.selectFrom('respondents').where('respondents.project_id', '=', projectId), f, 'all');
  const n = sql<number | string>`count(*)`.as('n');
  // Counted: not excluded (the predicate's `excluded`, server/responses/predicate.ts, is 0 or 1).
  const countedCompletes = () =>
    people()
      .where('respondents.excluded', '<>', sql.lit(EXCLUDED))
      .where('respondents.status', '=', RESPONDENT_STATUS.completed);
  const [excludedRow, completed, flagRows, rule, percent] = await Promise.all([
    people().where('respondents.excluded', '=', sql.lit(EXCLUDED)).select(n).executeTakeFirst(),
    counted ??
      countedCompletes()
        .select(n)
        .executeTakeFirst()
        .then((r) => Number(r?.n ?? 0)),
    countedCompletes()
      .where('respondents.flags', '<>', sql.lit(0))
      .select(['respondents.flags', n])
      .groupBy('respondents.flags')
      .execute(),
    storedRule(db, projectId),
    speederPercent(db, projectId),
  ]);
  const excluded = Number(excludedRow?.n ?? 0);
  let flagged = 0;
  const counts = new Map(QUALITY_FLAGS.map((name) => [name, 0]));
  for (const r of flagRows) {
    const rows = Number(r.n);
    const bits = Number(r.flags);
    flagged += rows;
    for (const name of QUALITY_FLAGS) if (bits & FLAG_BITS[name]) counts.set(name, counts.get(name)! + rows);
  }
  return {
    completed,
    flagged,
    percent: percentOf(flagged, completed),
    flags: QUALITY_FLAGS.map((name) => ({ name, count: counts.get(name)! })),
    excluded,
    speeder: {
      percent: rule?.percent ?? percent,
      medianSeconds: rule?.medianMs == null ? null : Math.round(rule.medianMs / 1000),
      thresholdSeconds: rule?.thresholdMs == null ? null : Math.round(rule.thresholdMs / 1000),
      minCompleted: SPEEDER_MIN_COMPLETED,
    },
  };
}

/** Completed respondents by portrait, exclusion and whether they completed lately. */
export interface Completes {
  /** Per portrait id ('' for none): accepted, excluded, and accepted within FIELD_PACE_HOURS. */
  byPortrait: Map<string, { accepted: number; excluded: number; recent: number }>;
  accepted: number;
  excluded: number;
}

/**
 * Every completed respondent of the project, grouped: quotas and the price are the whole project's.
 * Grouped by portrait and exclusion alone, the recent ones summed in each group: SQLite then reads
 * the groups in the order of the completes' partial index (026) where grouping by the recent flag
 * too sorted every completed respondent (the literal status lets it see the index's condition).
 */
export async function completes(db: Db, projectId: number, now: number): Promise<Completes> {
  const since = now - FIELD_PACE_HOURS * 3_600_000;
  const rows = await db
    .selectFrom('respondents')
    .select([
      'portrait_id',
      'excluded',
      sql<number | string>`sum(case when finished_at >= ${since} then 1 else 0 end)`.as('recent'),
      sql<number | string>`count(*)`.as('n'),
    ])
    .where('project_id', '=', projectId)
    .where('status', '=', sql.lit(RESPONDENT_STATUS.completed))
    .groupBy(['portrait_id', 'excluded'])
    .execute();
  const out: Completes = { byPortrait: new Map(), accepted: 0, excluded: 0 };
  for (const r of rows) {
    const portrait = r.portrait_id ?? '';
    let c = out.byPortrait.get(portrait);
    if (!c) out.byPortrait.set(portrait, (c = { accepted: 0, excluded: 0, recent: 0 }));
    const n = Number(r.n);
    if (Number(r.excluded) === EXCLUDED) {
      c.excluded += n;
      out.excluded += n;
    } else {
      c.accepted += n;
      out.accepted += n;
      c.recent += Number(r.recent);
    }
  }
  return out;
}

/** The price of the accepted completes: per portrait with its filters, or per respondent without. */
export async function acceptedPrice(
  db: Db,
  project: { type: number },
  content: ProjectContent,
  done: Completes,
): Promise<ReportPrice> {
  const [calculator, vk] = await Promise.all([readCalculator(db), readVkPercent(db)]);
  const settings = { ...calculator.researchers, vkPercent: vk.researchers };
  const counts = countsOf(content, project.type);
  const byPortrait = counts.portraits.length > 0;
  const price = projectPrice(
    settings,
    byPortrait
      ? {
          ...counts,
          portraits: content.portraits.map((p) => ({
            respondents: done.byPortrait.get(p.id)?.accepted ?? 0,
            filters: p.params.length,
          })),
        }
      : counts,
  );
  return {
    accepted: done.accepted,
    excluded: done.excluded,
    oneOff: price.oneOff,
    perRespondent: price.perRespondent,
    // Without portraits the formula prices one respondent: each accepted one costs that.
    total: byPortrait
      ? price.total
      : Math.round((price.oneOff + price.perRespondent * done.accepted) * 100) / 100,
  };
}

/** Field progress of a project with portraits. */
export async function fieldProgress(
  db: Db,
  projectId: number,
  content: ProjectContent,
  done: Completes,
  now: number,
): Promise<ReportField | undefined> {
  if (content.portraits.length === 0) return undefined;
  const quotas = await db
    .selectFrom('portrait_quotas')
    .select(['portrait_id', 'target'])
    .where('project_id', '=', projectId)
    .execute();
  const target = new Map(quotas.map((q) => [q.portrait_id, Number(q.target)]));
  return {
    at: now,
    portraits: content.portraits.map((p) => {
      const c = done.byPortrait.get(p.id) ?? { accepted: 0, excluded: 0, recent: 0 };
      return fieldPortrait({
        id: p.id,
        name: p.name,
        target: target.get(p.id) ?? p.respondents,
        accepted: c.accepted,
        excluded: c.excluded,
        recent: c.recent,
        now,
      });
    }),
  };
}
