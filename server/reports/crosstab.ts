import type { Db } from '../db';
import type { ProjectContent, Question, Statement } from '../../src/domain/content/model';
import { contentLanguages } from '../../src/domain/content/languages';
import { EDUCATION_LEVELS, GENDERS } from '../../src/domain/lookups';
import type { ReportFilters } from '../../src/domain/reports';
import type { TranslationFunctions } from '../../src/i18n/i18n-types';
import {
  AGE_BANDS,
  COL_CHOICE,
  CROSSTAB_ATTRIBUTES,
  CROSSTAB_TOP_CITIES,
  CROSSTAB_TOP_PLACES,
  OTHER_ANSWER,
  OTHER_PLACES,
  ROW_CHOICE,
  ROW_NUMERIC,
  SMALL_BASE,
  columnLetter,
  type CrosstabAttribute,
  type CrosstabCell,
  type CrosstabFinding,
  type CrosstabHeader,
  type CrosstabJson,
  type CrosstabNumbers,
} from '../../src/domain/crosstab';
import {
  anova,
  chiSquare,
  compareColumnProportions,
  groupNumbers,
  momentsOf,
  momentsOfSums,
  npsScore,
  pooledMoments,
  welchT,
  type Moments,
} from '../../src/domain/statistics';
import { badRequest } from '../http/errors';
import { crossBases, crossCounts, crossSums, type ColDimension, type RowDimension } from './crosstab-sql';
import { OTHER_ANSWER_ID, percentOf, questionsOf } from './shape';

// A crosstab (GET /project/stats/crosstab): what `rows` and `cols` name in the questionnaire, the
// database's counts (crosstab-sql.ts), and the shaping with the tests (src/domain/statistics.ts).
// The route checks who asks and whether the report may be read before calling this.

export interface CrosstabPlan {
  question: Question;
  number: number;
  statement: Statement | null;
  /** Null for fromTo: numbers by group only. */
  row: RowDimension | null;
  numeric: boolean;
  col: ColDimension;
  colQuestion: Question | null;
}

/** What `rows` and `cols` name, or a 400 saying why the pair makes no sense. */
export function planCrosstab(content: ProjectContent, rows: string, cols: string): CrosstabPlan {
  const refs = questionsOf(content);
  const [rowId, statementId] = rows.split(':');
  const at = refs.findIndex((r) => r.question.id === rowId);
  if (at < 0) throw badRequest((t) => t.compare.errors.unknownRows({ id: rows }), { field: 'rows' });
  const question = refs[at].question;
  let statement: Statement | null = null;
  if (statementId !== undefined) {
    statement =
      question.category === 'matrix' ? (question.statements.find((s) => s.id === statementId) ?? null) : null;
    if (!statement) throw badRequest((t) => t.compare.errors.unknownRows({ id: rows }), { field: 'rows' });
  } else if (!ROW_CHOICE.includes(question.category) && !ROW_NUMERIC.includes(question.category))
    throw badRequest((t) => t.compare.errors.rowsKind(), { field: 'rows' });

  let col: ColDimension;
  let colQuestion: Question | null = null;
  if ((CROSSTAB_ATTRIBUTES as readonly string[]).includes(cols))
    col = { kind: 'attribute', name: cols as CrosstabAttribute };
  else {
    colQuestion = refs.find((r) => r.question.id === cols)?.question ?? null;
    if (!colQuestion) throw badRequest((t) => t.compare.errors.unknownCols({ id: cols }), { field: 'cols' });
    if (colQuestion.id === question.id) throw badRequest((t) => t.compare.errors.same(), { field: 'cols' });
    if (colQuestion.category === 'fewAnswers')
      throw badRequest((t) => t.compare.errors.colsMultiple(), { field: 'cols' });
    if (!COL_CHOICE.includes(colQuestion.category))
      throw badRequest((t) => t.compare.errors.colsKind(), { field: 'cols' });
    col = { kind: 'question', questionId: colQuestion.id };
  }

  const c = question.category;
  const row: RowDimension | null = statement
    ? { kind: 'answer', questionId: question.id, statementId: statement.id }
    : c === 'cityAuto' || c === 'regionAuto'
      ? { kind: 'place', questionId: question.id }
      : c === 'starRating' || c === 'slider' || c === 'nps'
        ? { kind: 'value', questionId: question.id }
        : c === 'fromTo'
          ? null
          : { kind: 'answer', questionId: question.id, statementId: null };
  return {
    question,
    number: at + 1,
    statement,
    row,
    numeric: !statement && ROW_NUMERIC.includes(c),
    col,
    colQuestion,
  };
}

/** A choice's key: the custom "other" answer's rows carry no answer id (or the runner's 'other'). */
const answerKey = (id: string | number | null) =>
  id === null || id === OTHER_ANSWER_ID ? OTHER_ANSWER : String(id);

interface Texts {
  t: TranslationFunctions;
  placeName: (id: string) => string;
  /** A questionnaire language's name in the reader's language (the code where not given). */
  languageName?: (code: string) => string;
}

/** The columns' ids and texts, in their order, from the ids the counts hold. */
function columnHeaders(
  plan: CrosstabPlan,
  content: ProjectContent,
  totals: Map<string, number>,
  { t, placeName, languageName = (code) => code }: Texts,
): CrosstabHeader[] {
  const T = t.compare;
  const present = (list: CrosstabHeader[]) => {
    // Known values first in their own order, then any value stored that the list does not know.
    const known = new Set(list.map((h) => h.id));
    const extra = [...totals.keys()].filter((k) => !known.has(k)).sort();
    return [...list, ...extra.map((id) => ({ id, text: id }))].filter((h) => (totals.get(h.id) ?? 0) > 0);
  };
  if (plan.col.kind === 'question') {
    const q = plan.colQuestion!;
    const list = q.answers.map((a) => ({ id: a.id, text: a.text }));
    if (q.other !== null) list.push({ id: OTHER_ANSWER, text: q.other || T.otherAnswer() });
    return present(list);
  }
  switch (plan.col.name) {
    case 'gender':
      return present(GENDERS.map((g) => ({ id: g, text: T.genders[g]() })));
    case 'age':
      return present(
        AGE_BANDS.map(([band]) => ({ id: band, text: T.ageBand({ band: band.replace('-', '–') }) })),
      );
    case 'education':
      return present(EDUCATION_LEVELS.map((e) => ({ id: e, text: t.projects.education[e]() })));
    case 'portrait':
      return present(content.portraits.map((p) => ({ id: p.id, text: p.name || p.id })));
    case 'language':
      return present(contentLanguages(content).map((code) => ({ id: code, text: languageName(code) })));
    case 'city': {
      const top = [...totals]
        .filter(([id]) => id !== OTHER_PLACES)
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .map(([id]) => ({ id, text: placeName(id) }));
      return present([...top, { id: OTHER_PLACES, text: T.otherCities() }]);
    }
  }
}

/** Folds every key past the `keep` largest into OTHER_PLACES (cities in columns, places in rows). */
function topKeys(totals: Map<string, number>, keep: number): Set<string> {
  return new Set(
    [...totals]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, keep)
      .map(([id]) => id),
  );
}

function sumBy<T>(list: T[], key: (x: T) => string, n: (x: T) => number): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of list) m.set(key(x), (m.get(key(x)) ?? 0) + n(x));
  return m;
}

export async function buildCrosstab(
  db: Db,
  project: { id: number; name: string },
  content: ProjectContent,
  plan: CrosstabPlan,
  filters: ReportFilters,
  texts: Texts,
): Promise<CrosstabJson> {
  const pid = project.id;
  const q = plan.question;
  const multiple = q.category === 'fewAnswers' && plan.statement === null;
  const [counts, bases, sums] = await Promise.all([
    plan.row ? crossCounts(db, pid, filters, plan.row, plan.col) : Promise.resolve([]),
    plan.row && multiple ? crossBases(db, pid, filters, plan.row, plan.col) : Promise.resolve(null),
    plan.row === null
      ? crossSums(db, pid, filters, q.id, plan.col, q.scale ? (q.scale.min + q.scale.max) / 2 : 0)
      : Promise.resolve(null),
  ]);

  // Column keys as stored; cities past the top ones become one column.
  let colKey = (raw: string | null) => (plan.col.kind === 'question' ? answerKey(raw) : String(raw));
  if (plan.col.kind === 'attribute' && plan.col.name === 'city') {
    const byCity = sumBy(
      bases ?? sums ?? counts,
      (c) => String(c.col),
      (c) => c.n,
    );
    const top = topKeys(byCity, CROSSTAB_TOP_CITIES);
    colKey = (raw) => (top.has(String(raw)) ? String(raw) : OTHER_PLACES);
  }
  // Row keys; places past the top ones become one row.
  let rowKey = (raw: string | number | null) => (plan.row?.kind === 'answer' ? answerKey(raw) : String(raw));
  if (plan.row?.kind === 'place') {
    const top = topKeys(
      sumBy(
        counts,
        (c) => String(c.row),
        (c) => c.n,
      ),
      CROSSTAB_TOP_PLACES,
    );
    rowKey = (raw) => (top.has(String(raw)) ? String(raw) : OTHER_PLACES);
  }

  const colTotals = bases
    ? sumBy(
        bases,
        (b) => colKey(b.col),
        (b) => b.n,
      )
    : sums
      ? sumBy(
          sums,
          (s) => colKey(s.col),
          (s) => s.n,
        )
      : sumBy(
          counts,
          (c) => colKey(c.col),
          (c) => c.n,
        );
  const cols = columnHeaders(plan, content, colTotals, texts);

  // Rows: a choice question's answers (and "other") in order; places by frequency; values ascending.
  const T = texts.t.compare;
  let rows: CrosstabHeader[] = [];
  if (plan.row?.kind === 'answer') {
    rows = q.answers.map((a) => ({ id: a.id, text: a.text }));
    if (q.other !== null && !plan.statement)
      rows.push({ id: OTHER_ANSWER, text: q.other || T.otherAnswer() });
  } else if (plan.row?.kind === 'place') {
    const totals = sumBy(
      counts,
      (c) => rowKey(c.row),
      (c) => c.n,
    );
    rows = [...totals]
      .filter(([id]) => id !== OTHER_PLACES)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([id]) => ({ id, text: texts.placeName(id) }));
    if (totals.has(OTHER_PLACES)) rows.push({ id: OTHER_PLACES, text: T.otherPlaces() });
  } else if (plan.row?.kind === 'value') {
    const values = [...new Set(counts.map((c) => Number(c.row)))].sort((a, b) => a - b);
    rows = values.map((v) => ({ id: String(v), text: String(v) }));
  }

  const rowAt = new Map(rows.map((r, i) => [r.id, i]));
  const colAt = new Map(cols.map((c, j) => [c.id, j]));
  const table = rows.map(() => cols.map(() => 0));
  for (const c of counts) {
    const i = rowAt.get(rowKey(c.row));
    const j = colAt.get(colKey(c.col));
    if (i !== undefined && j !== undefined) table[i][j] += c.n;
  }
  const colBase = cols.map((c) => colTotals.get(c.id) ?? 0);
  const rowTotals = table.map((r) => r.reduce((s, x) => s + x, 0));
  const letters = cols.map((_, j) => columnLetter(j));

  const cells: CrosstabCell[][] = table.map((r, i) =>
    r.map((count, j) => ({
      count,
      colPercent: percentOf(count, colBase[j]),
      rowPercent: percentOf(count, rowTotals[i]),
      letters: [],
    })),
  );
  const findings: CrosstabFinding[] = [];
  table.forEach((r, i) => {
    for (const pair of compareColumnProportions(r, colBase)) {
      cells[i][pair.larger].letters.push(letters[pair.smaller]);
      findings.push({ row: i, ...pair });
    }
  });
  for (const r of cells) for (const c of r) c.letters.sort();
  findings.sort((a, b) => a.p - b.p || a.row - b.row);

  const all = colBase.reduce((s, n) => s + n, 0);
  const out: CrosstabJson = {
    project,
    filters,
    rowsOf: {
      id: q.id,
      text: q.text,
      category: q.category,
      ...(plan.statement ? { statement: { id: plan.statement.id, text: plan.statement.text } } : {}),
    },
    colsOf:
      plan.col.kind === 'question'
        ? { id: plan.col.questionId, text: plan.colQuestion!.text, kind: 'question' }
        : { id: plan.col.name, text: T.attributes[plan.col.name](), kind: 'attribute' },
    multiple,
    rows,
    cols: cols.map((c, j) => ({
      ...c,
      letter: letters[j],
      total: colBase[j],
      smallBase: colBase[j] < SMALL_BASE,
    })),
    cells,
    totals: { rows: rowTotals, cols: colBase, all },
    smallBase: all < SMALL_BASE,
    test: multiple ? null : chiSquare(table),
    findings,
    generatedAt: Date.now(),
  };
  if (multiple) out.rowTests = table.map((r) => chiSquare([r, r.map((n, j) => colBase[j] - n)]));
  if (plan.numeric) out.numbers = numbersByGroup(plan, cols, colKey, counts, sums);
  return out;
}

/** Mean, sd, interval per column, NPS for nps, and Welch's t (two columns) or ANOVA (more). */
function numbersByGroup(
  plan: CrosstabPlan,
  cols: CrosstabHeader[],
  colKey: (raw: string | null) => string,
  counts: { row: string | number | null; col: string | null; n: number }[],
  sums: { col: string | null; n: number; sum: number; sumSquares: number }[] | null,
): CrosstabNumbers {
  const isNps = plan.question.category === 'nps';
  let moments: Moments[];
  let dists: { value: number; count: number }[][] = [];
  if (sums) {
    const shift = plan.question.scale ? (plan.question.scale.min + plan.question.scale.max) / 2 : 0;
    moments = cols.map((c) => {
      const mine = sums.filter((s) => colKey(s.col) === c.id);
      // Several stored values may fold into one column (other cities): add their sums first.
      const n = mine.reduce((s, x) => s + x.n, 0);
      const sum = mine.reduce((s, x) => s + x.sum, 0);
      const ss = mine.reduce((s, x) => s + x.sumSquares, 0);
      return momentsOfSums(n, sum, ss, shift);
    });
  } else {
    dists = cols.map((c) => {
      const byValue = sumBy(
        counts.filter((x) => colKey(x.col) === c.id && x.row !== null),
        (x) => String(x.row),
        (x) => x.n,
      );
      return [...byValue].map(([value, count]) => ({ value: Number(value), count }));
    });
    moments = dists.map(momentsOf);
  }
  const used = moments.filter((m) => m.n > 0);
  const test = used.length === 2 ? welchT(used[0], used[1]) : used.length > 2 ? anova(used) : null;
  const total = pooledMoments(moments);
  return {
    cols: moments.map((m, j) => ({
      ...groupNumbers(m),
      ...(isNps ? { nps: npsScore(dists[j] ?? []) } : {}),
      smallBase: m.n < SMALL_BASE,
    })),
    total: { ...groupNumbers(total), ...(isNps ? { nps: npsScore(dists.flat()) } : {}) },
    test,
  };
}
