import { describe, expect, it } from 'vitest';
import { exampleSeed, shuffleOrder, shufflePreview } from '../../src/views/editor/panels/shuffleOrder';
import { runFlow } from '../../src/domain/flow';
import { pastedLines } from '../../src/views/editor/panels/sections/AnswersEditor';
import { SHUFFLE_MODES, type ShuffleMode } from '../../src/domain/content/model';
import { edit, openDoc, undo } from '../../src/domain/content/history';
import { newAnswer, newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';
import { withCategory } from '../../src/domain/content/categories';
import { projectPrice } from '../../src/domain/projectPrice';

// The pure parts of the panels: the shuffle preview, pasted lines, the one-edit paste, the category
// switch clearing the new fields, and the per-portrait price.

describe('shuffle preview', () => {
  // The preview must show what the runner does (src/domain/flow): the same function, the same seeds.
  const n = 6;
  const fixed: Record<ShuffleMode, [head: number, tail: number]> = {
    none: [6, 0],
    shuffle: [0, 0],
    shuffleExceptLast: [0, 1],
    shuffleExceptLastTwo: [0, 2],
    shuffleExceptFirst: [1, 0],
    shuffleExceptFirstTwo: [2, 0],
    shuffleExceptFirstAndLast: [1, 1],
    reverse: [0, 0],
    reverseExceptLast: [0, 1],
    reverseExceptLastTwo: [0, 2],
  };
  const survey = (mode: ShuffleMode) => ({
    questionnaires: [
      newQuestionnaire({
        id: 'Q1',
        blocks: [
          newBlock({
            questions: [
              newQuestion({
                id: 'q1',
                text: 'Q',
                shuffle: mode,
                answers: Array.from({ length: n }, (_, i) =>
                  newAnswer({ id: `${i + 1}`, text: `A${i + 1}` }),
                ),
              }),
            ],
          }),
        ],
      }),
    ],
    portraits: [],
  });
  /** The answer numbers of the runner's first page for a respondent with this seed. */
  const runnerSees = (mode: ShuffleMode, seed: string) => {
    const next = runFlow(survey(mode), { questionnaireId: 'Q1', seed }, []).next;
    if (next.kind !== 'page') throw new Error('no page');
    return next.answers.map((a) => Number(a.id));
  };
  const seeds = Array.from({ length: 200 }, (_, i) => `r${i}`);

  it.each(SHUFFLE_MODES)('%s: shows exactly the orders the runner gives respondents', (mode) => {
    const seen = seeds.map((seed) => runnerSees(mode, seed));
    for (const [k, seed] of seeds.entries()) expect(shuffleOrder(mode, n, `${seed}:q1`)).toEqual(seen[k]);
    const [head, tail] = fixed[mode];
    for (const order of seen) {
      expect([...order].sort()).toEqual([1, 2, 3, 4, 5, 6]);
      for (let i = 0; i < head; i++) expect(order[i]).toBe(i + 1);
      for (let i = n - tail; i < n; i++) expect(order[i]).toBe(i + 1);
    }
    const distinct = new Set(seen.map((o) => o.join()));
    const preview = shufflePreview(mode, n, 'q1', 3);

    if (mode === 'none') {
      expect(preview).toEqual({ kind: 'same', order: [1, 2, 3, 4, 5, 6] });
      expect(distinct.size).toBe(1);
    } else if (mode.startsWith('reverse')) {
      // Half of respondents see the list as written, the other half the movable part reversed.
      if (preview.kind !== 'halves') throw new Error(mode);
      expect(preview.asListed).toEqual([1, 2, 3, 4, 5, 6]);
      expect(preview.reversed).toEqual(
        {
          reverse: [6, 5, 4, 3, 2, 1],
          reverseExceptLast: [5, 4, 3, 2, 1, 6],
          reverseExceptLastTwo: [4, 3, 2, 1, 5, 6],
        }[mode as 'reverse'],
      );
      expect([...distinct].sort()).toEqual([preview.asListed.join(), preview.reversed.join()].sort());
      const reversed = seen.filter((o) => o.join() === preview.reversed.join()).length;
      expect(reversed).toBeGreaterThan(60);
      expect(reversed).toBeLessThan(140);
    } else {
      // Each respondent their own order; the example is the one respondent "example-3" gets.
      expect(preview).toEqual({ kind: 'example', respondent: 3, order: runnerSees(mode, exampleSeed(3)) });
      expect(distinct.size).toBeGreaterThan(1);
    }
  });

  it('says every respondent sees the list as written when a mode has fewer than two items to move', () => {
    expect(shufflePreview('reverseExceptLastTwo', 3, 'q1')).toEqual({ kind: 'same', order: [1, 2, 3] });
    expect(shufflePreview('shuffleExceptFirstAndLast', 3, 'q1')).toEqual({ kind: 'same', order: [1, 2, 3] });
    expect(shufflePreview('shuffle', 1, 'q1')).toEqual({ kind: 'same', order: [1] });
    expect(shufflePreview('reverse', 2, 'q1')).toEqual({
      kind: 'halves',
      asListed: [1, 2],
      reversed: [2, 1],
    });
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
