import type { ProjectContent, Question, QuestionCategory } from '../../src/domain/content/model';
import type {
  ReportAnswer,
  ReportFilters,
  ReportJson,
  ReportNumbers,
  ReportQuestion,
} from '../../src/domain/reports';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import { contentLanguages, sourceLanguage } from '../../src/domain/content/languages';
import type { Aggregates, Cell, StatusCount } from './aggregate';

// One pure function from the database's counts (aggregate.ts) and the questionnaire to the report
// the JSON answers, the workbook's summary sheets list and the page's charts draw. No I/O, no
// clock: the same counts always give the same report, which is what the property tests rely on.

/** Categories whose respondents write several rows to one question (so "answered" needs DISTINCT). */
export const MULTI_ROW: readonly QuestionCategory[] = ['fewAnswers', 'matrix', 'sortable'];
export const PLACE_CATEGORIES: readonly QuestionCategory[] = ['cityAuto', 'regionAuto'];
export const CHOICE: readonly QuestionCategory[] = ['oneAnswer', 'fewAnswers', 'screening', 'qualification'];
const NUMERIC: readonly QuestionCategory[] = ['fromTo', 'slider', 'nps', 'starRating'];
/** The id a runner may give the custom "other" answer (else its rows carry no answer id). */
export const OTHER_ANSWER_ID = 'other';

export interface ReportQuestionRef {
  question: Question;
  questionnaireId: string;
}

/** Every question of every questionnaire, in the order the editor shows them. */
export function questionsOf(content: ProjectContent): ReportQuestionRef[] {
  const out: ReportQuestionRef[] = [];
  for (const qn of content.questionnaires)
    for (const block of qn.blocks)
      for (const question of block.questions) out.push({ question, questionnaireId: qn.id });
  return out;
}

export function percentOf(count: number, of: number): number {
  return of > 0 ? Math.round((count * 1000) / of) / 10 : 0;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Mean, median, range of a distribution of values (sorted by value). */
export function numbersOf(distribution: { value: number; count: number }[]): ReportNumbers {
  const total = distribution.reduce((s, d) => s + d.count, 0);
  if (total === 0) return { mean: null, median: null, min: null, max: null, distribution };
  const sum = distribution.reduce((s, d) => s + d.value * d.count, 0);
  // The median: the middle value, or the mean of the two middle values when the count is even.
  const at = (k: number) => {
    let seen = 0;
    for (const d of distribution) {
      seen += d.count;
      if (seen > k) return d.value;
    }
    return distribution[distribution.length - 1].value;
  };
  const median = total % 2 === 1 ? at((total - 1) / 2) : (at(total / 2 - 1) + at(total / 2)) / 2;
  return {
    mean: round2(sum / total),
    median: round2(median),
    min: distribution[0].value,
    max: distribution[distribution.length - 1].value,
    distribution,
  };
}

export function respondentCounters(statuses: StatusCount[]): ReportJson['respondents'] {
  const of = (s: number) => statuses.find((r) => r.status === s)?.n ?? 0;
  return {
    started: statuses.reduce((s, r) => s + r.n, 0),
    completed: of(RESPONDENT_STATUS.completed),
    screenedOut: of(RESPONDENT_STATUS.screenedOut),
    inProgress: of(RESPONDENT_STATUS.started),
  };
}

function shapeQuestion(
  ref: ReportQuestionRef,
  number: number,
  cells: Cell[],
  distinct: Map<string, number>,
  places: { text: string; n: number }[],
  open: ReportJson['questions'][number]['open'] | undefined,
  placeName: (id: string) => string,
): ReportQuestion {
  const q = ref.question;
  const rows = cells.reduce((s, c) => s + c.n, 0);
  const answered = MULTI_ROW.includes(q.category) ? (distinct.get(q.id) ?? 0) : rows;
  const out: ReportQuestion = {
    id: q.id,
    questionnaireId: ref.questionnaireId,
    number,
    category: q.category,
    text: q.text,
    answered,
  };
  const countOf = (pred: (c: Cell) => boolean) => cells.reduce((s, c) => (pred(c) ? s + c.n : s), 0);

  if (CHOICE.includes(q.category)) {
    out.answers = q.answers.map((a) => {
      const n = countOf((c) => c.answer_id === a.id && c.statement_id === null);
      return { id: a.id, text: a.text, count: n, percent: percentOf(n, answered) };
    });
    if (q.other !== null) {
      const n = countOf(
        (c) => (c.answer_id === null || c.answer_id === OTHER_ANSWER_ID) && c.statement_id === null,
      );
      out.other = { count: n, percent: percentOf(n, answered) };
      if (open) out.other.texts = open;
    }
  } else if (q.category === 'matrix') {
    out.matrix = q.statements.map((s) => {
      const mine = cells.filter((c) => c.statement_id === s.id);
      const sAnswered = mine.reduce((sum, c) => sum + c.n, 0);
      const cellsOut: ReportAnswer[] = q.answers.map((a) => {
        const n = mine.reduce((sum, c) => (c.answer_id === a.id ? sum + c.n : sum), 0);
        return { id: a.id, text: a.text, count: n, percent: percentOf(n, sAnswered) };
      });
      return { id: s.id, text: s.text, answered: sAnswered, cells: cellsOut };
    });
  } else if (q.category === 'sortable') {
    out.ranks = q.answers
      .map((a) => {
        const mine = cells.filter((c) => c.answer_id === a.id && c.value !== null);
        const n = mine.reduce((s, c) => s + c.n, 0);
        const sum = mine.reduce((s, c) => s + (c.value ?? 0) * c.n, 0);
        return { id: a.id, text: a.text, count: n, meanRank: n > 0 ? round2(sum / n) : null };
      })
      .sort((x, y) => (x.meanRank ?? Infinity) - (y.meanRank ?? Infinity));
  } else if (NUMERIC.includes(q.category)) {
    const byValue = new Map<number, number>();
    for (const c of cells)
      if (c.value !== null && c.answer_id === null) byValue.set(c.value, (byValue.get(c.value) ?? 0) + c.n);
    const distribution = [...byValue]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => a.value - b.value);
    out.numbers = numbersOf(distribution);
    if (q.category === 'nps') {
      const total = distribution.reduce((s, d) => s + d.count, 0);
      const share = (pred: (v: number) => boolean) =>
        percentOf(
          distribution.reduce((s, d) => (pred(d.value) ? s + d.count : s), 0),
          total,
        );
      const promoters = share((v) => v >= 9);
      const detractors = share((v) => v <= 6);
      out.nps = {
        promoters,
        passives: share((v) => v > 6 && v < 9),
        detractors,
        score: total > 0 ? round2(promoters - detractors) : null,
      };
    }
  } else if (q.category === 'open') {
    out.open = open ?? { total: rows, page: 1, pageSize: 0, items: [] };
  } else if (PLACE_CATEGORIES.includes(q.category)) {
    out.places = places
      .map((p) => ({ id: p.text, name: placeName(p.text), count: p.n, percent: percentOf(p.n, answered) }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  }
  return out;
}

export interface ShapeInput {
  project: ReportJson['project'];
  content: ProjectContent;
  aggregates: Aggregates;
  /** The requested page of each written-answer list (open texts, "Other" texts); total when searched. */
  open: Map<string, { page: number; items: { respondentId: number; text: string }[]; total?: number }>;
  openPageSize: number;
  filters: ReportFilters;
  final: boolean;
  available: boolean;
  countersAvailable: boolean;
  generatedAt: number;
  /** The display name of a stored city or region id (server/reports/places.ts). */
  placeName?: (id: string) => string;
  /** The language `content`'s texts are in (localizeContent); the source when not said. */
  textLanguage?: string;
}

export function shapeReport(input: ShapeInput): ReportJson {
  const { aggregates: agg, content } = input;
  const placeName = input.placeName ?? ((id: string) => id);
  const cellsByQuestion = new Map<string, Cell[]>();
  for (const c of agg.cells) {
    const list = cellsByQuestion.get(c.question_id);
    if (list) list.push(c);
    else cellsByQuestion.set(c.question_id, [c]);
  }
  const distinct = new Map(agg.answered.map((r) => [r.question_id, r.n]));
  const questions = input.available
    ? questionsOf(content).map((ref, i) => {
        const cells = cellsByQuestion.get(ref.question.id) ?? [];
        const total = cells.reduce((s, c) => s + c.n, 0);
        const list = input.open.get(ref.question.id);
        const open =
          ref.question.category === 'open' || list
            ? {
                // While searching, the matches counted; else every text: all an open question's
                // rows, a choice question's rows without an answer (its "Other").
                total:
                  list?.total ??
                  (ref.question.category === 'open'
                    ? total
                    : cells.reduce(
                        (s, c) =>
                          (c.answer_id === null || c.answer_id === OTHER_ANSWER_ID) && c.statement_id === null
                            ? s + c.n
                            : s,
                        0,
                      )),
                page: input.open.get(ref.question.id)?.page ?? 1,
                pageSize: input.openPageSize,
                items: input.open.get(ref.question.id)?.items ?? [],
              }
            : undefined;
        const places = agg.places.filter((p) => p.question_id === ref.question.id);
        return shapeQuestion(ref, i + 1, cells, distinct, places, open, placeName);
      })
    : [];
  const quotas = new Map(agg.quotas.map((r) => [r.portrait_id, r]));
  const byCount = (a: { name: string; count: number }, b: { name: string; count: number }) =>
    b.count - a.count || a.name.localeCompare(b.name);
  const named = (list: { name: string; n: number }[]) =>
    list.map((c) => ({ id: c.name, name: placeName(c.name), count: c.n })).sort(byCount);
  return {
    project: input.project,
    final: input.final,
    available: input.available,
    countersAvailable: input.countersAvailable,
    filters: input.filters,
    languages: [...contentLanguages(content)],
    textLanguage: input.textLanguage ?? sourceLanguage(content),
    respondents: input.countersAvailable
      ? respondentCounters(agg.statuses)
      : { started: 0, completed: 0, screenedOut: 0, inProgress: 0 },
    portraits: content.portraits.map((p) => ({
      id: p.id,
      name: p.name,
      target: quotas.get(p.id)?.target ?? p.respondents,
      completed: input.countersAvailable ? (quotas.get(p.id)?.completed ?? 0) : 0,
    })),
    questions,
    cities: input.available ? named(agg.cities) : [],
    regions: input.available ? named(agg.regions) : [],
    // Filled by buildReport (server/reports/dropoff.ts) when the numbers are available.
    funnel: [],
    timing: { completed: 0, medianSeconds: null, p90Seconds: null },
    timeline: [],
    generatedAt: input.generatedAt,
  };
}
