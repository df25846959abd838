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
  type ReportQuality,
} from '../../src/domain/responses';
import { FLAG_BITS } from '../../src/domain/quality';
import { fieldPortrait } from '../../src/domain/fieldProgress';
import { whereFilters } from '../reports/aggregate';
import { percentOf } from '../reports/shape';
import { EXCLUDED } from './predicate';
import { speederPercent, storedRule } from './speeders';

// The report's two parts of issue 31 (report JSON `quality` and `field`): GROUP BYs whose result is
// bounded by the flags' bits and the portraits, never by the respondents.

/** The "Response quality" card over the report's filters. */
export async function qualityCard(db: Db, projectId: number, f: ReportFilters): Promise<ReportQuality> {
  const [rows, rule, percent] = await Promise.all([
    whereFilters(db.selectFrom('respondents').where('respondents.project_id', '=', projectId), f, 'all')
      .select([
        'respondents.excluded',
        sql<number>`case when respondents.status = ${RESPONDENT_STATUS.completed} then 1 else 0 end`.as(
          'done',
        ),
        'respondents.flags',
        sql<number | string>`count(*)`.as('n'),
      ])
      .groupBy([sql`1`, sql`2`, sql`3`])
      .execute(),
    storedRule(db, projectId),
    speederPercent(db, projectId),
  ]);
  let completed = 0;
  let flagged = 0;
  let excluded = 0;
  const counts = new Map(QUALITY_FLAGS.map((name) => [name, 0]));
  for (const r of rows) {
    const n = Number(r.n);
    if (Number(r.excluded) === EXCLUDED) {
      excluded += n;
      continue;
    }
    if (Number(r.done) !== 1) continue;
    completed += n;
    const bits = Number(r.flags);
    if (bits !== 0) flagged += n;
    for (const name of QUALITY_FLAGS) if (bits & FLAG_BITS[name]) counts.set(name, counts.get(name)! + n);
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

/** Field progress of a project with portraits (every respondent: quotas are the whole project's). */
export async function fieldProgress(
  db: Db,
  projectId: number,
  content: ProjectContent,
  now = Date.now(),
): Promise<ReportField | undefined> {
  if (content.portraits.length === 0) return undefined;
  const since = now - FIELD_PACE_HOURS * 3_600_000;
  const [rows, quotas] = await Promise.all([
    db
      .selectFrom('respondents')
      .select([
        'portrait_id',
        'excluded',
        sql<number>`case when finished_at >= ${since} then 1 else 0 end`.as('recent'),
        sql<number | string>`count(*)`.as('n'),
      ])
      .where('project_id', '=', projectId)
      .where('status', '=', RESPONDENT_STATUS.completed)
      .where('portrait_id', 'is not', null)
      .groupBy([sql`1`, sql`2`, sql`3`])
      .execute(),
    db
      .selectFrom('portrait_quotas')
      .select(['portrait_id', 'target'])
      .where('project_id', '=', projectId)
      .execute(),
  ]);
  const target = new Map(quotas.map((q) => [q.portrait_id, Number(q.target)]));
  return {
    at: now,
    portraits: content.portraits.map((p) => {
      let accepted = 0;
      let excluded = 0;
      let recent = 0;
      for (const r of rows) {
        if (r.portrait_id !== p.id) continue;
        const n = Number(r.n);
        if (Number(r.excluded) === EXCLUDED) excluded += n;
        else {
          accepted += n;
          if (Number(r.recent) === 1) recent += n;
        }
      }
      return fieldPortrait({
        id: p.id,
        name: p.name,
        target: target.get(p.id) ?? p.respondents,
        accepted,
        excluded,
        recent,
        now,
      });
    }),
  };
}
