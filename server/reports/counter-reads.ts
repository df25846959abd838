import { sql } from 'kysely';
import type { Db } from '../db';
import type { Cell, TextCount } from './aggregate';
import type { ReportFilters } from '../../src/domain/reports';
import { CELL_KEY } from './counters';

// Reading the counters (counters.ts keeps them as answers arrive): which filters they answer, and
// the cells those filters select, deltas of exclusions not folded yet included.

/**
 * Whether the counters answer these filters: any without a city (report_counts), or a city with
 * anything but an age range (report_city_counts). A city and an age range group the answer rows.
 */
export function countersServe(f: ReportFilters): boolean {
  return f.city === undefined || (f.ageMin === undefined && f.ageMax === undefined);
}

/**
 * The counter rows the filters select, summed by cell (countersServe says which filters can): the
 * counters' rows and the deltas not folded into them yet (counter-shift.ts), in one statement, so
 * that a fold moving rows from one to the other never shows half-way. Each table is summed by
 * itself and readCounters adds the two: the counters' cells are their key's prefix after the project
 * (and the city), so SQLite sums them in the key's order as it reads them, where one GROUP BY over
 * both tables' rows sorted every row first (some 300 000 at 100 000 respondents, since 024 keyed
 * them by language too).
 */
function counterCells(db: Db, projectId: number, f: ReportFilters) {
  // A city's counters keep no age (countersServe), the others no city.
  const city = f.city !== undefined;
  const part = (
    table: 'report_counts' | 'report_count_deltas' | 'report_city_counts' | 'report_city_count_deltas',
  ) => {
    let q = db
      .selectFrom(table)
      .select((eb) => [...CELL_KEY, eb.fn.sum<number>('n').as('n')])
      .where('project_id', '=', projectId);
    if (city) q = q.where(sql.ref('city'), '=', f.city!);
    if (f.portrait !== undefined) q = q.where('portrait_id', '=', f.portrait);
    if (f.gender !== undefined) q = q.where('gender', '=', f.gender);
    if (f.education !== undefined) q = q.where('education', '=', f.education);
    if (f.language !== undefined) q = q.where('language', '=', f.language);
    // An unknown age (-1) is outside every range, as NULL is for the respondents' own filter.
    if (!city && (f.ageMin !== undefined || f.ageMax !== undefined))
      q = q.where(sql.ref('age'), '>=', Math.max(0, f.ageMin ?? 0));
    if (!city && f.ageMax !== undefined) q = q.where(sql.ref('age'), '<=', f.ageMax);
    return q.groupBy([...CELL_KEY]);
  };
  return city
    ? part('report_city_counts').unionAll(part('report_city_count_deltas')).execute()
    : part('report_counts').unionAll(part('report_count_deltas')).execute();
}

/**
 * The report's answer counts from the counters, in aggregate.ts's shapes: the same numbers its
 * GROUP BY over the answer rows gives for the respondents the filters select.
 */
export async function readCounters(
  db: Db,
  projectId: number,
  f: ReportFilters,
  wanted: { multiRow: string[]; places: string[] },
): Promise<{ cells: Cell[]; answered: { question_id: string; n: number }[]; places: TextCount[] }> {
  const rows = (await counterCells(db, projectId, f)).map((r) => ({
    ...r,
    kind: Number(r.kind),
    has_value: Number(r.has_value),
    value: Number(r.value),
    n: Number(r.n),
  }));
  const multi = new Set(wanted.multiRow);
  const placeIds = new Set(wanted.places);
  const cells = new Map<string, Cell>();
  const answered = new Map<string, number>();
  const places = new Map<string, TextCount>();
  for (const r of rows) {
    if (r.n === 0) continue;
    if (r.kind === 1) {
      if (multi.has(r.question_id)) answered.set(r.question_id, (answered.get(r.question_id) ?? 0) + r.n);
      continue;
    }
    const k = [r.question_id, r.answer_id, r.statement_id, r.has_value, r.value].join('\u0001');
    const cell = cells.get(k);
    if (cell) cell.n += r.n;
    else
      cells.set(k, {
        question_id: r.question_id,
        answer_id: r.answer_id === '' ? null : r.answer_id,
        statement_id: r.statement_id === '' ? null : r.statement_id,
        value: r.has_value ? r.value : null,
        n: r.n,
      });
    if (r.place !== '' && placeIds.has(r.question_id)) {
      const pk = r.question_id + '\u0001' + r.place;
      const p = places.get(pk);
      if (p) p.n += r.n;
      else places.set(pk, { question_id: r.question_id, text: r.place, n: r.n });
    }
  }
  return {
    cells: [...cells.values()].filter((c) => c.n !== 0),
    answered: [...answered].map(([question_id, n]) => ({ question_id, n })),
    places: [...places.values()].filter((p) => p.n !== 0),
  };
}
