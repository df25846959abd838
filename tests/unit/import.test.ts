import { describe, expect, it } from 'vitest';
import { importQuestions, type ImportResult } from '../../src/domain/content/import';
import { edit, openDoc } from '../../src/domain/content/history';
import { checkContent } from '../../src/domain/content/rules';
import { newBlock, newQuestionnaire } from '../../src/domain/content/factory';
import { LIMITS } from '../../src/domain/content/limits';

// Import from list: our list format and Qualtrics Simple TXT, into questions and answers.

function ok(result: ImportResult) {
  if (!result.ok) throw new Error(`failed at line ${result.line}: ${result.reason}`);
  return result;
}
const shape = (r: ImportResult) =>
  ok(r).blocks.map((b) => ({
    name: b.name,
    questions: b.questions.map((q) => ({
      text: q.text,
      category: q.category,
      answers: q.answers.map((a) => a.text),
      statements: q.statements.map((s) => s.text),
    })),
  }));

describe('import: list format', () => {
  it('reads numbered questions with one answer per line and bullets removed', () => {
    const r = importQuestions(`1. How old are you?
- under 18
- 18–25
- over 25

2) Which games do you play? [many] [other]
* Shooters
* Puzzles
3. What would you change?`);
    expect(r.ok && r.format).toBe('list');
    expect(shape(r)).toEqual([
      {
        name: null,
        questions: [
          {
            text: 'How old are you?',
            category: 'oneAnswer',
            answers: ['under 18', '18–25', 'over 25'],
            statements: [],
          },
          {
            text: 'Which games do you play?',
            category: 'fewAnswers',
            answers: ['Shooters', 'Puzzles'],
            statements: [],
          },
          { text: 'What would you change?', category: 'open', answers: [], statements: [] },
        ],
      },
    ]);
    expect(ok(r).blocks[0].questions[1].other).toBe('');
  });

  it('reads blank-line separated questions, blocks and matrix rows', () => {
    const r = importQuestions(`Do you like it?
Yes
No

# Habits
Rate each [matrix]
> Morning
> Evening
Often
Never

How much? [slider 0-100 step 5]

Stars? [stars 7]`);
    expect(shape(r)).toEqual([
      {
        name: null,
        questions: [
          { text: 'Do you like it?', category: 'oneAnswer', answers: ['Yes', 'No'], statements: [] },
        ],
      },
      {
        name: 'Habits',
        questions: [
          {
            text: 'Rate each',
            category: 'matrix',
            answers: ['Often', 'Never'],
            statements: ['Morning', 'Evening'],
          },
          { text: 'How much?', category: 'slider', answers: [], statements: [] },
          { text: 'Stars?', category: 'starRating', answers: [], statements: [] },
        ],
      },
    ]);
    const [, slider, stars] = ok(r).blocks[1].questions;
    expect(slider.scale).toEqual({ min: 0, max: 100, step: 5 });
    expect(stars.stars).toBe(7);
  });

  it('knows every category marker, in English and Russian', () => {
    const markers: [string, string][] = [
      ['one', 'oneAnswer'],
      ['несколько', 'fewAnswers'],
      ['screening', 'screening'],
      ['квалификация', 'qualification'],
      ['range 1-5', 'fromTo'],
      ['открытый', 'open'],
      ['stars', 'starRating'],
      ['слайдер', 'slider'],
      ['nps', 'nps'],
      ['ранжирование', 'sortable'],
      ['matrix', 'matrix'],
      ['регион', 'regionAuto'],
      ['город', 'cityAuto'],
    ];
    for (const [marker, category] of markers) {
      const withAnswers = [
        'one',
        'несколько',
        'screening',
        'квалификация',
        'ранжирование',
        'matrix',
      ].includes(marker);
      const text = `Q [${marker}]${withAnswers ? '\n> row\nA\nB' : ''}`;
      const body = marker === 'matrix' ? text : text.replace('\n> row', '');
      const r = importQuestions(body);
      expect(ok(r).blocks[0].questions[0].category, marker).toBe(category);
    }
  });

  it('reads screening modes on answers', () => {
    const r = ok(importQuestions('Do you play? [screening]\nYes [allow]\nNo [deny]\nSometimes'));
    expect(r.blocks[0].questions[0].answers.map((a) => a.screening)).toEqual(['allow', 'deny', 'allow']);
  });

  it.each([
    ['', 1, 'empty'],
    ['   \n\n', 1, 'empty'],
    ['1. Q [weird]\nA', 1, 'unknownMarker'],
    ['1. Q [open]\nA', 2, 'answersNotAllowed'],
    ['1. Q [one]\n> row\nA', 2, 'statementsNotAllowed'],
    ['1. Q [matrix]\nA', 1, 'matrixNeedsStatements'],
    ['1. Q [range 5-1]', 1, 'badScale'],
    ['1. Q [stars 40]', 1, 'badStars'],
    ['Intro text\n1. Q\nA', 1, 'textBeforeFirstQuestion'],
  ])('fails on %j at line %i (%s)', (input, line, reason) => {
    expect(importQuestions(input)).toMatchObject({ ok: false, format: 'list', line, reason });
  });

  it('makes rows without columns a matrix question, left for the rules to call empty', () => {
    const q = ok(importQuestions('1. Q\n> row')).blocks[0].questions[0];
    expect([q.category, q.answers.length, q.statements.length]).toEqual(['matrix', 0, 1]);
    expect(
      checkContent(
        { portraits: [], questionnaires: [newQuestionnaire({ blocks: [newBlock({ questions: [q] })] })] },
        { projectType: 1 },
      ),
    ).toEqual([expect.objectContaining({ code: 40513 })]);
  });

  it('refuses more answers than a question may have, at the first one too many', () => {
    const lines = ['1. Q', ...Array.from({ length: LIMITS.answersPerQuestion + 1 }, (_, i) => `- a${i}`)];
    expect(importQuestions(lines.join('\n'))).toMatchObject({
      ok: false,
      line: LIMITS.answersPerQuestion + 2,
      reason: 'tooManyAnswers',
    });
  });
});

describe('import: Qualtrics Simple TXT', () => {
  // The example of Qualtrics' own documentation (Simple format).
  const example = `1. This is a multiple choice question. Every question starts with a
number followed by a period. There should be a blank line between
the question text and the choices.

a
b
c
d

[[Block:My Block Name]]

2. This is a multiple choice multiple answer question.

[[MultipleAnswer]]

a
b
c
d

[[PageBreak]]

3. This is a matrix question that has longer question text.
It is a matrix question because it has two groups of choices.
The question text is on two lines.

ma
mb
mc

m1
m2
m3
`;

  it('maps the documented example onto blocks, one-answer, few-answer and matrix questions', () => {
    const r = importQuestions(example);
    expect(r.ok && r.format).toBe('qualtrics');
    expect(shape(r)).toEqual([
      {
        name: null,
        questions: [
          {
            text: 'This is a multiple choice question. Every question starts with a number followed by a period. There should be a blank line between the question text and the choices.',
            category: 'oneAnswer',
            answers: ['a', 'b', 'c', 'd'],
            statements: [],
          },
        ],
      },
      {
        name: 'My Block Name',
        questions: [
          {
            text: 'This is a multiple choice multiple answer question.',
            category: 'fewAnswers',
            answers: ['a', 'b', 'c', 'd'],
            statements: [],
          },
          {
            text: 'This is a matrix question that has longer question text. It is a matrix question because it has two groups of choices. The question text is on two lines.',
            category: 'matrix',
            answers: ['m1', 'm2', 'm3'],
            statements: ['ma', 'mb', 'mc'],
          },
        ],
      },
    ]);
  });

  it('reads [[Question:…]] headers with [[Choices]] and [[Answers]]', () => {
    const r = importQuestions(`[[AdvancedFormat]]
[[Question:MC:MultipleAnswer]]
Pick some
[[Choices]]
x
y
[[Question:TE]]
Tell us more
[[Question:Matrix]]
Rate
[[Choices]]
speed
[[Answers]]
good
bad
[[Question:RO]]
Order these
[[Choices]]
p
q`);
    expect(shape(r)).toEqual([
      {
        name: null,
        questions: [
          { text: 'Pick some', category: 'fewAnswers', answers: ['x', 'y'], statements: [] },
          { text: 'Tell us more', category: 'open', answers: [], statements: [] },
          { text: 'Rate', category: 'matrix', answers: ['good', 'bad'], statements: ['speed'] },
          { text: 'Order these', category: 'sortable', answers: ['p', 'q'], statements: [] },
        ],
      },
    ]);
  });

  it.each([
    ['[[Question:DB]]\nJust text', 1, 'unsupportedType'],
    ['[[Block:x]]\nstray text', 2, 'textBeforeFirstQuestion'],
    ['1. Q\n[[Embedded]]', 2, 'unsupportedTag'],
    ['[[MultipleAnswer]]\n1. Q', 1, 'textBeforeFirstQuestion'],
  ])('fails on %j at line %i (%s)', (input, line, reason) => {
    expect(importQuestions(input)).toMatchObject({ ok: false, format: 'qualtrics', line, reason });
  });
});

describe('import into a project', () => {
  it('adds the questions to the chosen block and opens new blocks for block markers, as one undoable step', () => {
    const qn = newQuestionnaire({ blocks: [newBlock({ id: 'b1' })] });
    const doc = openDoc({ questionnaires: [qn], portraits: [] });
    const r = ok(importQuestions('1. A?\n- y\n- n\n# Second\n2. B? [open]'));
    const step = edit(doc, { type: 'import', questionnaireId: qn.id, blockId: 'b1', blocks: r.blocks })!;
    const blocks = step.doc.content.questionnaires[0].blocks;
    expect(blocks.map((b) => [b.name, b.questions.map((q) => q.text)])).toEqual([
      ['', ['A?']],
      ['Second', ['B?']],
    ]);
    expect(step.change).toMatchObject({ code: '004', label: '2' });
    expect(checkContent(step.doc.content, { projectType: 1 })).toEqual([]);
  });

  it('creates a questionnaire when the project has none', () => {
    const r = ok(importQuestions('Q1\nA\nB'));
    const step = edit(openDoc({ questionnaires: [], portraits: [] }), {
      type: 'import',
      questionnaireId: null,
      blockId: null,
      blocks: r.blocks,
    })!;
    expect(step.doc.content.questionnaires).toHaveLength(1);
    expect(step.doc.content.questionnaires[0].blocks[0].questions[0].answers).toHaveLength(2);
  });
});
