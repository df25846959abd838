import { describe, expect, it } from 'vitest';
import { shuffleOrder } from '../../src/views/editor/panels/shuffleOrder';
import { pastedLines } from '../../src/views/editor/panels/sections/AnswersEditor';
import { SHUFFLE_MODES } from '../../src/domain/content/model';
import { edit, openDoc, undo } from '../../src/domain/content/history';
import { newAnswer, newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';
import { withCategory } from '../../src/domain/content/categories';
import { projectPrice } from '../../src/domain/projectPrice';

// The pure parts of the panels: the shuffle preview, pasted lines, the one-edit paste, the category
// switch clearing the new fields, and the per-portrait price.

describe('shuffle preview', () => {
  it('keeps the fixed answers of each mode in place and moves only the others', () => {
    const fixed: Record<string, number[]> = {
      shuffleExceptLast: [5],
      shuffleExceptLastTwo: [4, 5],
      shuffleExceptFirst: [0],
      shuffleExceptFirstTwo: [0, 1],
      shuffleExceptFirstAndLast: [0, 5],
      reverseExceptLast: [5],
      reverseExceptLastTwo: [4, 5],
    };
    for (const mode of SHUFFLE_MODES) {
      const order = shuffleOrder(mode, 6, () => 0.3);
      expect([...order].sort()).toEqual([0, 1, 2, 3, 4, 5]);
      for (const i of fixed[mode] ?? []) expect(order[i], mode).toBe(i);
    }
    expect(shuffleOrder('none', 4)).toEqual([0, 1, 2, 3]);
    expect(shuffleOrder('reverse', 4)).toEqual([3, 2, 1, 0]);
    expect(shuffleOrder('reverseExceptLast', 4)).toEqual([2, 1, 0, 3]);
    expect(shuffleOrder('shuffleExceptFirstTwo', 1)).toEqual([0]);
  });
});

describe('pasting answers', () => {
  it('takes one answer per non-empty line, without list markers', () => {
    expect(pastedLines('1. Red\r\n2) Green\n\n - Blue \n• Cyan\n* 3D')).toEqual([
      'Red',
      'Green',
      'Blue',
      'Cyan',
      '3D',
    ]);
  });

  it('adds them in one edit that one undo takes back, filling an empty answer first', () => {
    const empty = newAnswer({ id: 'e' });
    const q = newQuestion({ id: 'q', answers: [newAnswer({ id: 'a', text: 'A' }), empty] });
    const doc = openDoc({
      questionnaires: [newQuestionnaire({ blocks: [newBlock({ questions: [q] })] })],
      portraits: [],
    });
    const step = edit(doc, {
      type: 'answer.addMany',
      questionId: 'q',
      index: 2,
      texts: ['X', 'Y', 'Z'],
      fill: 'e',
    })!;
    const answers = step.doc.content.questionnaires[0].blocks[0].questions[0].answers;
    expect(answers.map((a) => a.text)).toEqual(['A', 'X', 'Y', 'Z']);
    expect(answers[1].id).toBe('e');
    expect(step.doc.undo).toHaveLength(1);
    expect(undo(step.doc)!.doc.content).toEqual(doc.content);
  });
});

describe('category switch', () => {
  it('clears the nps labels, the answer length and the region on other categories', () => {
    const q = newQuestion({ category: 'nps', scaleLabels: { min: 'no', max: 'yes' } });
    expect(withCategory(q, 'nps').scaleLabels).toEqual({ min: 'no', max: 'yes' });
    expect(withCategory(q, 'slider').scaleLabels).toBeNull();
    expect(
      withCategory(newQuestion({ category: 'open', textLength: { min: 1, max: 9 } }), 'oneAnswer').textLength,
    ).toBeNull();
    expect(
      withCategory(newQuestion({ category: 'cityAuto', region: 'MOS' }), 'regionAuto').region,
    ).toBeNull();
  });
});

describe('project price', () => {
  const settings = {
    vkPercent: 10,
    basePrice: 1000,
    questionSurcharge: 50,
    questionStep: 5,
    blockSurcharge: 200,
    blockProgressive: 10,
    screeningPrice: 30,
    targetFilterSurcharge: 7,
    filledBlockPrice: 3,
    completedSurveyPrice: 40,
  };
  const base = { questions: 12, blocks: 3, screening: 2 };
  it('adds each portrait’s respondents with its own filters; one-off once', () => {
    const one = projectPrice(settings, { ...base, portraits: [{ respondents: 100, filters: 2 }] });
    const two = projectPrice(settings, {
      ...base,
      portraits: [
        { respondents: 100, filters: 2 },
        { respondents: 50, filters: 0 },
      ],
    });
    expect(one.oneOff).toBe(two.oneOff);
    expect(two.respondents).toBe(150);
    expect(two.total - one.total).toBeCloseTo(50 * (40 + 3 * 3) * 1.1, 1);
    expect(one.total).toBeCloseTo((1570 + 100 * (40 + 9 + 14)) * 1.1, 2);
  });
  it('never costs less for more questions, blocks or respondents', () => {
    const p = (q: number, b: number, r: number) =>
      projectPrice(settings, {
        questions: q,
        blocks: b,
        screening: 0,
        portraits: [{ respondents: r, filters: 1 }],
      }).total;
    expect(p(20, 3, 100)).toBeGreaterThanOrEqual(p(19, 3, 100));
    expect(p(20, 4, 100)).toBeGreaterThan(p(20, 3, 100));
    expect(p(20, 3, 101)).toBeGreaterThan(p(20, 3, 100));
  });
});
