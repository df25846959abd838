import type { Db } from '../db';
import type { ProjectRow } from '../repos/projects';
import { readSettings } from '../repos/projects';
import { loadContent } from '../repos/content';
import { FINAL_REPORT_STATUSES, type ReportFilters, type ReportJson } from '../../src/domain/reports';
import type { ProjectStatusId } from '../../src/domain/projects';
import type { ProjectContent } from '../../src/domain/content/model';
import { aggregate, population } from './aggregate';
import { countTexts, openAnswerLists } from './written-answers';
import { dropOffCounts, funnelOf, timelineOf, timingOf } from './dropoff';
import { placeNamer } from './places';
import { acceptedPrice, completes, fieldProgress, qualityCard } from '../responses/report-parts';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import { CHOICE, MULTI_ROW, PLACE_CATEGORIES, questionsOf, shapeReport } from './shape';

// The report of one project: whether it may be read now (live or final), the database's counts,
// and the shaping. The route checks who asks before calling this.

export interface Readiness {
  final: boolean;
  /** The questions' numbers may be shown. */
  available: boolean;
  /** The respondent and portrait counters may be shown. */
  countersAvailable: boolean;
}

/**
 * A finished survey's report is always readable. While the survey runs (or before it starts),
 * set_report_fill_online decides whether the questions' numbers are shown and set_stat_fill_online
 * whether the counters are (docs/decisions/reports.md).
 */
export async function readiness(db: Db, p: NonNullable<ProjectRow>): Promise<Readiness> {
  const final = FINAL_REPORT_STATUSES.includes(p.status as ProjectStatusId);
  if (final) return { final, available: true, countersAvailable: true };
  const s = await readSettings(db, p);
  return {
    final,
    available: s.set_report_fill_online,
    countersAvailable: s.set_stat_fill_online || s.set_report_fill_online,
  };
}

export async function buildReport(
  db: Db,
  p: NonNullable<ProjectRow>,
  opts: {
    filters: ReportFilters;
    openQuestion?: string;
    openPage: number;
    openPageSize: number;
    /** Narrows the written answers listed: openQuestion's list, or every list without it. */
    textSearch?: string;
    ready: Readiness;
    content?: ProjectContent;
    locale?: 'ru' | 'en';
    /** The download needs neither the written answers' pages nor the funnel. */
    lists?: boolean;
    /** The language `content`'s texts are in (server/reports/labels.ts); the source when not said. */
    textLanguage?: string;
  },
): Promise<ReportJson> {
  const content = opts.content ?? (await loadContent(db, p.id)).content;
  const refs = questionsOf(content);
  const multiRow = refs.filter((r) => MULTI_ROW.includes(r.question.category)).map((r) => r.question.id);
  const places = refs.filter((r) => PLACE_CATEGORIES.includes(r.question.category)).map((r) => r.question.id);
  // The written answers listed: open questions' texts and choice questions' "Other" texts.
  const listed =
    opts.ready.available && opts.lists !== false
      ? refs
          .filter(
            (r) =>
              r.question.category === 'open' ||
              (CHOICE.includes(r.question.category) && r.question.other !== null),
          )
          .map((r) => r.question.id)
      : [];
  const wanted = opts.ready.available
    ? { multiRow, places }
    : { multiRow: [] as string[], places: [] as string[] };
  // Without openQuestion the page and the search apply to every list.
  const mine = (id: string) => opts.openQuestion === undefined || opts.openQuestion === id;
  const pageOf = (id: string) => (mine(id) ? opts.openPage : 1);
  const searchOf = (id: string) => (mine(id) ? opts.textSearch : undefined);
  const now = Date.now();
  // The filtered respondents' own counts first: whether they are few decides how the parts that
  // read their rows read them (aggregate.ts, population).
  const counted = population(db, p.id, opts.filters);
  const few = counted.then((c) => c.few);
  const counting = aggregate(db, p.id, opts.filters, wanted, counted);
  // The written answers' pages (awaited below, list by list; none asked when nothing is listed).
  const lists =
    listed.length === 0
      ? Promise.resolve([])
      : few.then((small) =>
          openAnswerLists(
            db,
            p.id,
            opts.filters,
            listed.map((id) => ({ questionId: id, page: pageOf(id), search: searchOf(id) })),
            opts.openPageSize,
            small,
          ),
        );
  // The quality card's counted completes are the report's own count of completed respondents.
  const completedOf = (a: Awaited<typeof counting>) =>
    a.statuses.find((s) => s.status === RESPONDENT_STATUS.completed)?.n ?? 0;
  const [aggregates, drop, quality, accepted, ...pages] = await Promise.all([
    counting,
    opts.ready.available && opts.lists !== false
      ? few.then((small) => dropOffCounts(db, p.id, opts.filters, small))
      : null,
    // Issue 31: the response quality card (over the filters), and the project's accepted completes
    // (field progress and price: the whole project's).
    opts.ready.countersAvailable ? qualityCard(db, p.id, opts.filters, counting.then(completedOf)) : null,
    opts.ready.countersAvailable ? completes(db, p.id, now) : null,
    ...listed.map(async (id, i) => {
      const search = searchOf(id);
      const [items, total] = await Promise.all([
        lists.then((all) => all[i]),
        search === undefined ? undefined : countTexts(db, p.id, opts.filters, id, search),
      ]);
      return { page: pageOf(id), items, total };
    }),
  ]);
  const report = shapeReport({
    project: { id: p.id, name: p.name, status: p.status as ProjectStatusId },
    content,
    aggregates,
    open: new Map(pages.map((list, i) => [listed[i], list])),
    openPageSize: opts.openPageSize,
    filters: opts.filters,
    ...opts.ready,
    generatedAt: Date.now(),
    placeName: placeNamer(opts.locale ?? 'ru'),
    textLanguage: opts.textLanguage,
  });
  if (quality) {
    report.respondents.excluded = quality.excluded;
    if (opts.ready.available) report.quality = quality;
  }
  if (accepted) {
    const [field, price] = await Promise.all([
      fieldProgress(db, p.id, content, accepted, now),
      acceptedPrice(db, p, content, accepted),
    ]);
    if (field) report.field = field;
    report.price = price;
  }
  if (drop) {
    report.funnel = funnelOf(report.questions, drop.last);
    report.timing = timingOf(drop.durations);
    report.timeline = timelineOf(drop);
  }
  return report;
}
