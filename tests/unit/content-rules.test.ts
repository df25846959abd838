import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkContent } from '../../src/domain/content/rules';
import { blocksSave, summaryOf, type Problem } from '../../src/domain/content/problems';
import {
  newAnswer,
  newBlock,
  newPortrait,
  newQuestion,
  newQuestionnaire,
  newStatement,
} from '../../src/domain/content/factory';
import { LIMITS, pictureUrl } from '../../src/domain/content/limits';
import type { ProjectContent, Question } from '../../src/domain/content/model';
import { ProjectType } from '../../src/domain/projects';
import { arbContent, bigProject } from './content-fixtures';

const TARGET = { projectType: ProjectType.Target };
const DEFAULT = { projectType: ProjectType.Default };
const PIC = pictureUrl('a'.repeat(64), 'png');

/** A complete, valid target project: one questionnaire, two blocks, a portrait for it. */
function valid(): ProjectContent {
  return {
    questionnaires: [
      newQuestionnaire({
        id: 'qn1',
        blocks: [
          newBlock({
            id: 'b1',
            questions: [
              newQuestion({
                id: 'q1',
                text: 'Gender?',
                answers: [newAnswer({ id: 'a1', text: 'M' }), newAnswer({ id: 'a2', text: 'F' })],
              }),
              newQuestion({ id: 'q2', text: 'Why?', category: 'open' }),
            ],
          }),
          newBlock({ id: 'b2', questions: [newQuestion({ id: 'q3', text: 'Rate', category: 'nps' })] }),
        ],
      }),
    ],
    portraits: [
      newPortrait({
        id: 'p1',
        respondents: 500,
        questionnaireId: 'qn1',
        params: [
          { field: 'age', values: [], min: 18, max: 35 },
          { field: 'gender', values: ['female'], min: null, max: null },
        ],
      }),
    ],
  };
}

function q(c: ProjectContent, block = 0, index = 0): Question {
  return c.questionnaires[0].blocks[block].questions[index];
}

function only(problems: Problem[], rule: Problem['rule']) {
  return problems.filter((p) => p.rule === rule);
}

describe('content rules', () => {
  it('finds nothing wrong with a complete project', () => {
    expect(checkContent(valid(), TARGET)).toEqual([]);
  });

  // Each case breaks one thing and expects the code and the path of the item at fault.
  const cases: [string, number | null, string, Problem['severity'], (c: ProjectContent) => void, string?][] =
    [
      ['empty', 40501, '', 'incomplete', (c) => (c.questionnaires = [newQuestionnaire({ id: 'qn1' })])],
      [
        'tooManyQuestionnaires',
        40502,
        'questionnaires',
        'error',
        (c) =>
          c.questionnaires.push(...Array.from({ length: LIMITS.questionnaires }, () => newQuestionnaire())),
      ],
      ['noPortraits', 40503, 'portraits', 'incomplete', (c) => (c.portraits = [])],
      [
        'tooManyPortraits',
        40504,
        'portraits',
        'error',
        (c) =>
          (c.portraits = Array.from({ length: LIMITS.portraits + 1 }, () =>
            structuredClone({ ...valid().portraits[0], id: Math.random().toString(36).slice(2) }),
          )),
      ],
      [
        'questionnaireWithoutPortrait',
        40505,
        'questionnaires.1',
        'incomplete',
        (c) =>
          c.questionnaires.push(
            newQuestionnaire({
              blocks: [newBlock({ questions: [newQuestion({ text: 'x', category: 'open' })] })],
            }),
          ),
      ],
      [
        'noBlocks',
        40507,
        'questionnaires.0',
        'incomplete',
        (c) => c.questionnaires.unshift(newQuestionnaire({ id: 'qn0', blocks: [] })),
      ],
      [
        'tooManyBlocks',
        40508,
        'questionnaires.0',
        'error',
        (c) =>
          c.questionnaires[0].blocks.push(
            ...Array.from({ length: LIMITS.blocksPerQuestionnaire }, () =>
              newBlock({ questions: [newQuestion({ text: 't', category: 'open' })] }),
            ),
          ),
      ],
      [
        'emptyBlock',
        40509,
        'questionnaires.0.blocks.1',
        'incomplete',
        (c) => (c.questionnaires[0].blocks[1].questions = []),
      ],
      [
        'tooManyQuestions',
        40510,
        'questionnaires.0.blocks.1',
        'error',
        (c) =>
          c.questionnaires[0].blocks[1].questions.push(
            ...Array.from({ length: LIMITS.questionsPerBlock }, () =>
              newQuestion({ text: 't', category: 'open' }),
            ),
          ),
      ],
      ['portraitNoParams', 40511, 'portraits.0', 'incomplete', (c) => (c.portraits[0].params = [])],
      [
        'tooManyRespondents',
        40512,
        'portraits.0',
        'error',
        (c) => (c.portraits[0].respondents = LIMITS.respondentsMax + 1),
      ],
      [
        'emptyQuestion',
        40513,
        'questionnaires.0.blocks.0.questions.0',
        'incomplete',
        (c) => (q(c).answers = []),
      ],
      [
        'matrixStatements',
        40513,
        'questionnaires.0.blocks.0.questions.0',
        'incomplete',
        (c) => (q(c).category = 'matrix'),
      ],
      [
        'questionText',
        40514,
        'questionnaires.0.blocks.0.questions.1',
        'incomplete',
        (c) => (q(c, 0, 1).text = '  '),
      ],
      [
        'tooManyAnswers',
        40515,
        'questionnaires.0.blocks.0.questions.0',
        'error',
        (c) =>
          q(c).answers.push(
            ...Array.from({ length: LIMITS.answersPerQuestion }, () => newAnswer({ text: 'x' })),
          ),
      ],
      [
        'questionPicture',
        40516,
        'questionnaires.0.blocks.0.questions.0',
        'error',
        (c) => (q(c).picture = 'https://tracker.example.com/pixel.gif'),
      ],
      [
        'emptyAnswer',
        40517,
        'questionnaires.0.blocks.0.questions.0.answers.1',
        'incomplete',
        (c) => (q(c).answers[1].text = ''),
      ],
      [
        'answerPicture',
        40518,
        'questionnaires.0.blocks.0.questions.0.answers.0',
        'error',
        (c) => (q(c).answers[0].picture = 'data:image/png;base64,AAAA'),
      ],
      [
        'rankingTwoAnswers',
        null,
        'questionnaires.0.blocks.0.questions.0',
        'incomplete',
        (c) => ((q(c).category = 'sortable'), q(c).answers.pop()),
      ],
      [
        'answerLimitRange',
        null,
        'questionnaires.0.blocks.0.questions.0.answerLimit',
        'error',
        (c) => ((q(c).category = 'fewAnswers'), (q(c).answerLimit = { min: 2, max: 1 })),
      ],
      [
        'answerLimitExceeded',
        null,
        'questionnaires.0.blocks.0.questions.0.answerLimit',
        'error',
        (c) => ((q(c).category = 'fewAnswers'), (q(c).answerLimit = { min: 1, max: 3 })),
      ],
      [
        'answerLimitMissing',
        null,
        'questionnaires.0.blocks.0.questions.0.answerLimit',
        'error',
        (c) => ((q(c).category = 'fewAnswers'), (q(c).answerLimit = { min: 3, max: 3 })),
      ],
      [
        'fieldNotApplicable',
        null,
        'questionnaires.0.blocks.0.questions.1',
        'error',
        (c) => q(c, 0, 1).answers.push(newAnswer({ text: 'x' })),
      ],
      [
        'scaleInvalid',
        null,
        'questionnaires.0.blocks.1.questions.0.scale',
        'error',
        (c) => (q(c, 1).scale = { min: 0, max: 5, step: 1 }),
      ],
      [
        'starsInvalid',
        null,
        'questionnaires.0.blocks.1.questions.0.stars',
        'error',
        (c) => Object.assign(q(c, 1), { category: 'starRating', scale: null, stars: 11 }),
      ],
      [
        'recallInvalid',
        null,
        'questionnaires.0.blocks.0.questions.0.recall',
        'error',
        (c) => (q(c).recall = { questionId: 'q2', mode: 'selected' }),
      ],
      ['duplicateId', null, 'questionnaires.0.blocks.0.questions.1', 'error', (c) => (q(c, 0, 1).id = 'q1')],
      ['portraitRespondents', null, 'portraits.0', 'error', (c) => (c.portraits[0].respondents = 0)],
      ['portraitAge', null, 'portraits.0.params.0', 'error', (c) => (c.portraits[0].params[0].min = 13)],
      [
        'portraitParamEmpty',
        null,
        'portraits.0.params.1',
        'error',
        (c) => (c.portraits[0].params[1].values = []),
      ],
      [
        'portraitUnknownField',
        null,
        'portraits.0.params.1',
        'error',
        (c) => (c.portraits[0].params[1].field = 'shoeSize'),
      ],
      [
        'portraitUnknownValue',
        null,
        'portraits.0.params.1',
        'error',
        (c) => (c.portraits[0].params[1].values = ['robot']),
      ],
      [
        'portraitDuplicateField',
        null,
        'portraits.0.params.1',
        'error',
        (c) => (c.portraits[0].params[1] = { field: 'age', values: [], min: 20, max: 30 }),
      ],
      [
        'portraitQuestionnaire',
        null,
        'portraits.0',
        'error',
        (c) => (c.portraits[0].questionnaireId = 'gone'),
      ],
    ];

  it.each(cases)('%s → code %s at %s', (rule, code, path, severity, breakIt) => {
    const c = valid();
    breakIt(c);
    const found = only(checkContent(c, TARGET), rule as Problem['rule']);
    expect(found.length, JSON.stringify(checkContent(c, TARGET))).toBeGreaterThan(0);
    expect(found[0]).toMatchObject({ code, path, severity });
  });

  it('refuses portraits in a project that is not a target project (40506), and needs none there', () => {
    const c = valid();
    expect(checkContent(c, DEFAULT)).toEqual([
      expect.objectContaining({
        rule: 'portraitsNotAllowed',
        code: 40506,
        path: 'portraits',
        severity: 'error',
      }),
    ]);
    c.portraits = [];
    expect(checkContent(c, DEFAULT)).toEqual([]);
  });

  it('accepts uploaded pictures on questions and on answers of choice questions, not on matrix columns', () => {
    const c = valid();
    q(c).picture = PIC;
    q(c).answers[0].picture = PIC;
    q(c).answers[1].text = '';
    q(c).answers[1].picture = PIC;
    expect(checkContent(c, TARGET)).toEqual([]);
    Object.assign(q(c), { category: 'matrix', statements: [newStatement({ text: 'row' })] });
    expect(only(checkContent(c, TARGET), 'answerPicture').map((p) => p.code)).toEqual([40518, 40518]);
  });

  it('counts the "other" answer as available for the answer limit', () => {
    const c = valid();
    Object.assign(q(c), { category: 'fewAnswers', answerLimit: { min: 1, max: 3 }, other: '' });
    expect(checkContent(c, TARGET)).toEqual([]);
  });

  it('splits problems into those that stop a save and those that stop only moderation', () => {
    const c = valid();
    q(c, 0, 1).text = '';
    c.portraits[0].respondents = 0;
    const problems = checkContent(c, TARGET);
    expect(blocksSave(problems).map((p) => p.rule)).toEqual(['portraitRespondents']);
    expect(summaryOf(blocksSave(problems)[0])).toBe('portraits');
  });

  describe('redirects', () => {
    function flow(): ProjectContent {
      // b1: q1 q2 q3 | b2: q4 q5 | qn2 (b3: q6)
      return {
        portraits: [],
        questionnaires: [
          newQuestionnaire({
            id: 'qn1',
            blocks: [
              newBlock({
                id: 'b1',
                questions: ['q1', 'q2', 'q3'].map((id) =>
                  newQuestion({
                    id,
                    text: id,
                    answers: [newAnswer({ id: `${id}a`, text: 'a' }), newAnswer({ id: `${id}b`, text: 'b' })],
                  }),
                ),
              }),
              newBlock({
                id: 'b2',
                questions: ['q4', 'q5'].map((id) => newQuestion({ id, text: id, category: 'open' })),
              }),
            ],
          }),
          newQuestionnaire({
            id: 'qn2',
            blocks: [
              newBlock({ id: 'b3', questions: [newQuestion({ id: 'q6', text: 'q6', category: 'open' })] }),
            ],
          }),
        ],
      };
    }
    const at = (c: ProjectContent, id: string) =>
      c.questionnaires
        .flatMap((x) => x.blocks)
        .flatMap((b) => b.questions)
        .find((x) => x.id === id)!;
    const redirectProblems = (c: ProjectContent) =>
      checkContent(c, DEFAULT).filter((p) => summaryOf(p) === 'redirects');

    it('accepts forward redirects of every kind', () => {
      const c = flow();
      at(c, 'q1').answers[0].redirect = { kind: 'questionInBlock', target: 'q3' };
      at(c, 'q1').answers[1].redirect = { kind: 'block', target: 'b2' };
      at(c, 'q2').redirect = { kind: 'completeBlock', target: null };
      at(c, 'q3').redirect = { kind: 'questionnaire', target: 'qn2' };
      at(c, 'q4').redirect = { kind: 'newQuestion', target: 'q6' };
      expect(redirectProblems(c)).toEqual([]);
    });

    it('names the redirects that form a cycle', () => {
      const c = flow();
      at(c, 'q4').redirect = { kind: 'question', target: 'q2' };
      const problems = redirectProblems(c);
      expect(problems).toEqual([
        expect.objectContaining({
          rule: 'redirectCycle',
          path: 'questionnaires.0.blocks.1.questions.0.redirect',
          redirects: ['questionnaires.0.blocks.1.questions.0.redirect'],
        }),
      ]);
    });

    it('finds a cycle made of several redirects, naming each of them and nothing else', () => {
      const c = flow();
      at(c, 'q1').answers[0].redirect = { kind: 'questionnaire', target: 'qn2' };
      at(c, 'q6').redirect = { kind: 'question', target: 'q1' };
      const [cycle] = redirectProblems(c);
      expect(cycle.rule).toBe('redirectCycle');
      expect(new Set(cycle.redirects)).toEqual(
        new Set([
          'questionnaires.0.blocks.0.questions.0.answers.0.redirect',
          'questionnaires.1.blocks.0.questions.0.redirect',
        ]),
      );
    });

    it('sees no cycle when every answer of a one-answer question leads forward', () => {
      const c = flow();
      // q3 is never reached from q1's answers, so the back-redirect on q3 is not part of a loop through q1.
      at(c, 'q1').answers[0].redirect = { kind: 'block', target: 'b2' };
      at(c, 'q1').answers[1].redirect = { kind: 'block', target: 'b2' };
      at(c, 'q3').redirect = { kind: 'question', target: 'q2' };
      expect(redirectProblems(c).map((p) => p.rule)).toEqual(['redirectCycle']);
      at(c, 'q3').redirect = { kind: 'question', target: 'q1' };
      expect(redirectProblems(c)).toEqual([]);
    });

    it('finds a redirect to itself', () => {
      const c = flow();
      at(c, 'q5').redirect = { kind: 'questionInBlock', target: 'q5' };
      expect(redirectProblems(c)).toEqual([
        expect.objectContaining({
          rule: 'redirectCycle',
          redirects: ['questionnaires.0.blocks.1.questions.1.redirect'],
        }),
      ]);
    });

    it.each([
      ['a missing target', { kind: 'question' as const, target: 'nope' }, 'missing'],
      ['no target', { kind: 'block' as const, target: null }, 'noTarget'],
      ['a block of another questionnaire', { kind: 'block' as const, target: 'b3' }, 'outsideQuestionnaire'],
      [
        'a question of another block as "in current block"',
        { kind: 'questionInBlock' as const, target: 'q5' },
        'outsideBlock',
      ],
      ['a block given as a question', { kind: 'question' as const, target: 'b2' }, 'missing'],
    ])('calls %s incorrect', (_name, redirect, reason) => {
      const c = flow();
      at(c, 'q1').redirect = redirect;
      expect(redirectProblems(c)).toEqual([
        expect.objectContaining({
          rule: 'redirectTarget',
          path: 'questionnaires.0.blocks.0.questions.0.redirect',
          params: { reason },
        }),
      ]);
    });

    it('refuses an answer redirect on a category whose answers do not redirect', () => {
      const c = flow();
      Object.assign(at(c, 'q1'), { category: 'sortable' });
      at(c, 'q1').answers[0].redirect = { kind: 'block', target: 'b2' };
      expect(redirectProblems(c)).toEqual([
        expect.objectContaining({ rule: 'redirectTarget', params: { reason: 'notApplicable' } }),
      ]);
    });
  });

  it('never throws, whatever the content', () => {
    fc.assert(
      fc.property(arbContent, fc.constantFrom(1, 2), (content, projectType) => {
        const problems = checkContent(content, { projectType });
        for (const p of problems) expect(typeof p.path).toBe('string');
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.anything(), (junk) => void checkContent(junk as ProjectContent, DEFAULT)),
      { numRuns: 200 },
    );
  });

  it('checks a 1 000-question project and finds it fine', () => {
    const c = bigProject();
    expect(checkContent(c, DEFAULT)).toEqual([]);
  });
});
