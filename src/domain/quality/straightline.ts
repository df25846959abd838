import type { Question } from '../content/model';
import { scaleOf, type Reply } from '../flow/reply';
import { STRAIGHT_MATRIX_MIN, STRAIGHT_SCALE_RUN, type QualityFlagParams } from '../responses';

// Straight-lining: answering by a pattern instead of reading. Two shapes, both pure and read from
// the respondent's replies in the order the pages were shown:
// - a matrix of at least STRAIGHT_MATRIX_MIN statements with every statement in one column;
// - at least STRAIGHT_SCALE_RUN scale questions in a row (starRating, slider, nps) at the same
//   position of their scales (the same share of the way from the scale's start: 5 of 5 stars and
//   10 on an NPS are both the top), a page of any other kind breaking the run.

const SCALES = new Set(['starRating', 'slider', 'nps']);

export interface AnsweredPage {
  question: Question;
  reply: Reply;
  /** The question's number in the report (1-based). */
  number: number;
}

type StraightLine = Extract<QualityFlagParams, { name: 'straight-liner' }>;

/** Where a scale reply sits on its scale, 0 (start) to 1 (end); null when it has no value. */
export function scalePosition(q: Question, value: number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const { min, max } = scaleOf(q);
  return max > min ? Math.round(((value - min) / (max - min)) * 1e6) / 1e6 : null;
}

/** The first straight line in the replies, or null. */
export function straightLine(pages: readonly AnsweredPage[]): StraightLine | null {
  for (const p of pages) {
    if (p.question.category !== 'matrix' || p.question.statements.length < STRAIGHT_MATRIX_MIN) continue;
    const cells = p.reply.cells ?? {};
    const columns = p.question.statements.map((s) => cells[s.id]);
    if (columns.every((c) => c !== undefined && c === columns[0]))
      return {
        name: 'straight-liner',
        kind: 'matrix',
        questionId: p.question.id,
        questionNumber: p.number,
        statements: columns.length,
      };
  }
  let run: AnsweredPage[] = [];
  let at: number | null = null;
  const found = (): StraightLine => ({
    name: 'straight-liner',
    kind: 'scale',
    questionId: run[0].question.id,
    questionNumber: run[0].number,
    lastQuestionNumber: run[run.length - 1].number,
    count: run.length,
  });
  for (const p of pages) {
    const position = SCALES.has(p.question.category) ? scalePosition(p.question, p.reply.value) : null;
    if (position !== null && position === at) run.push(p);
    else {
      if (run.length >= STRAIGHT_SCALE_RUN) return found();
      run = position === null ? [] : [p];
      at = position;
    }
  }
  return run.length >= STRAIGHT_SCALE_RUN ? found() : null;
}
