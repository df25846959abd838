import { describe, expect, it } from 'vitest';
import { newAnswer, newQuestion, newStatement } from '../../src/domain/content/factory';
import type { Question } from '../../src/domain/content/model';
import {
  answerFlags,
  flagBits,
  flagNames,
  isSpeeder,
  medianSeconds,
  speederRule,
  straightLine,
  type AnsweredPage,
} from '../../src/domain/quality';
import { fieldPortrait } from '../../src/domain/fieldProgress';

// The straight-line test, the speeder rule and field progress: built to trip and built not to.

const answers = (n: number) => Array.from({ length: n }, (_, i) => newAnswer({ text: `A${i + 1}` }));
const matrix = (statements: number): Question =>
  newQuestion({
    category: 'matrix',
    text: 'Rate',
    answers: answers(5),
    statements: Array.from({ length: statements }, (_, i) => newStatement({ text: `S${i + 1}` })),
  });
const scale = (category: 'starRating' | 'slider' | 'nps'): Question =>
  newQuestion({ category, text: category });
const open = (): Question => newQuestion({ category: 'open', text: 'Why?' });

let n = 0;
const page = (question: Question, reply: AnsweredPage['reply']): AnsweredPage => ({
  question,
  reply,
  number: ++n,
});
const sameColumn = (q: Question, column = 0) =>
  page(q, { cells: Object.fromEntries(q.statements.map((s) => [s.id, q.answers[column].id])) });

describe('the straight-line test', () => {
  it('flags a matrix of four statements or more answered in one column', () => {
    const q = matrix(4);
    expect(straightLine([sameColumn(q, 2)])).toMatchObject({
      kind: 'matrix',
      questionId: q.id,
      statements: 4,
    });
  });

  it('leaves a matrix of three statements, or one column broken once', () => {
    expect(straightLine([sameColumn(matrix(3))])).toBeNull();
    const q = matrix(6);
    const cells = Object.fromEntries(q.statements.map((s, i) => [s.id, q.answers[i === 5 ? 1 : 0].id]));
    expect(straightLine([page(q, { cells })])).toBeNull();
  });

  it('flags five scale questions in a row at the same position, whatever their scales', () => {
    // The top of each scale: 5 of 5 stars, 100 on the slider (0–100), 10 on the NPS.
    const pages = [
      page(scale('starRating'), { value: 5 }),
      page(scale('nps'), { value: 10 }),
      page(scale('slider'), { value: 100 }),
      page(scale('starRating'), { value: 5 }),
      page(scale('nps'), { value: 10 }),
    ];
    expect(straightLine(pages)).toMatchObject({ kind: 'scale', count: 5, questionId: pages[0].question.id });
  });

  it('leaves four in a row, a run broken by another page, or positions that differ', () => {
    const top = () => page(scale('nps'), { value: 10 });
    expect(straightLine([top(), top(), top(), top()])).toBeNull();
    expect(straightLine([top(), top(), page(open(), { text: 'ok' }), top(), top(), top()])).toBeNull();
    expect(straightLine([top(), top(), page(scale('nps'), { value: 9 }), top(), top()])).toBeNull();
  });
});

describe('the answer flags', () => {
  it('find a gibberish "Other" text and name its question', () => {
    const q = newQuestion({ category: 'oneAnswer', text: 'Genre', answers: answers(3), other: 'Other' });
    const p = page(q, { answers: [], other: 'фывапр' });
    expect(answerFlags([p])).toEqual([
      { name: 'gibberish', questionId: q.id, questionNumber: p.number, text: 'фывапр', rule: 'mashing' },
    ]);
    expect(answerFlags([page(q, { answers: [], other: 'Симуляторы' })])).toEqual([]);
  });

  it('keep their bits apart', () => {
    expect(flagNames(flagBits([{ name: 'speeder' }, { name: 'duplicate' }]))).toEqual([
      'speeder',
      'duplicate',
    ]);
    expect(flagNames(0)).toEqual([]);
  });
});

describe('the speeder rule', () => {
  it('takes the median of whole seconds, odd and even', () => {
    expect(
      medianSeconds([
        { seconds: 10, n: 1 },
        { seconds: 30, n: 1 },
        { seconds: 20, n: 1 },
      ]),
    ).toBe(20);
    expect(
      medianSeconds([
        { seconds: 10, n: 2 },
        { seconds: 30, n: 2 },
      ]),
    ).toBe(20);
    expect(medianSeconds([])).toBeNull();
  });

  it('applies only from 30 completions, at the project percent of the median', () => {
    const few = [{ seconds: 200, n: 29 }];
    expect(speederRule(few, 50).thresholdMs).toBeNull();
    const rule = speederRule(
      [
        { seconds: 200, n: 29 },
        { seconds: 40, n: 1 },
      ],
      50,
    );
    expect(rule).toEqual({ completed: 30, medianMs: 200_000, thresholdMs: 100_000, percent: 50 });
    expect(isSpeeder(40_000, rule)).toBe(true);
    expect(isSpeeder(100_000, rule)).toBe(false);
    expect(speederRule([{ seconds: 200, n: 30 }], 30).thresholdMs).toBe(60_000);
  });
});

describe('field progress', () => {
  const now = 1_700_000_000_000;
  const base = { id: 'p', name: 'P', target: 100, excluded: 0, now };
  it('estimates when a portrait fills at the last day’s pace', () => {
    // 24 completes in 24 h: one an hour, 40 left → 40 h.
    const f = fieldPortrait({ ...base, accepted: 60, recent: 24 });
    expect(f).toMatchObject({ state: 'eta', perHour: 1, eta: now + 40 * 3_600_000 });
  });

  it('says "not at this pace" past 30 days or with no completes, and full at the target', () => {
    expect(fieldPortrait({ ...base, accepted: 10, recent: 1 }).state).toBe('notAtThisPace');
    expect(fieldPortrait({ ...base, accepted: 10, recent: 0 }).state).toBe('notAtThisPace');
    expect(fieldPortrait({ ...base, accepted: 100, recent: 0 })).toMatchObject({ state: 'full', eta: null });
  });
});
