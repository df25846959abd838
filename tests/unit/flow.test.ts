import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  newAnswer,
  newBlock,
  newQuestion,
  newQuestionnaire,
  newStatement,
} from '../../src/domain/content/factory';
import { SHUFFLE_MODES, type ProjectContent, type Question } from '../../src/domain/content/model';
import { arrange, runFlow, runFlowFrom, checkReply, replyRows, type Reply } from '../../src/domain/flow';

// The survey flow (issue 13): one pure function decides every page a respondent sees.

const a = (id: string, extra: Partial<ReturnType<typeof newAnswer>> = {}) =>
  newAnswer({ id, text: id, ...extra });
const q = (id: string, extra: Partial<Question> = {}) =>
  newQuestion({ id, text: id, answers: [a(`${id}a`), a(`${id}b`)], ...extra });

function content(...blocks: Question[][]): ProjectContent {
  return {
    questionnaires: [
      newQuestionnaire({
        id: 'Q1',
        blocks: blocks.map((qs, i) => newBlock({ id: `B${i + 1}`, questions: qs })),
      }),
    ],
    portraits: [],
  };
}
const start = { questionnaireId: 'Q1', seed: 's1' };
const pick = (questionId: string, ...answers: string[]) => ({ questionId, reply: { answers } as Reply });
const path = (c: ProjectContent, replies: ReturnType<typeof pick>[]) => {
  const r = runFlow(c, start, replies);
  return {
    seen: r.pages.map((p) => p.question.id),
    next: r.next.kind === 'page' ? r.next.question.id : r.next.reason,
    error: r.error,
  };
};

describe('order and the end', () => {
  it('goes through blocks in order, passes empty blocks and completes at the end of the questionnaire', () => {
    const c = content([q('q1'), q('q2')], [], [q('q3')]);
    c.questionnaires.push(newQuestionnaire({ id: 'Q2', blocks: [newBlock({ questions: [q('other')] })] }));
    expect(path(c, [])).toMatchObject({ next: 'q1' });
    expect(path(c, [pick('q1', 'q1a'), pick('q2', 'q2a')])).toMatchObject({ seen: ['q1', 'q2'], next: 'q3' });
    expect(path(c, [pick('q1', 'q1a'), pick('q2', 'q2a'), pick('q3', 'q3b')]).next).toBe('completed');
  });

  it('refuses a reply for a page the flow does not reach, and a reply that does not fit', () => {
    const c = content([q('q1'), q('q2')]);
    expect(path(c, [pick('q2', 'q2a')]).error).toEqual({ index: 0, problem: { code: 'notReachable' } });
    expect(path(c, [pick('q1', 'nope')]).error).toEqual({ index: 0, problem: { code: 'notOffered' } });
    expect(path(c, [pick('q1')]).error).toEqual({ index: 0, problem: { code: 'required' } });
    expect(path(c, [pick('q1', 'q1a', 'q1b')]).error).toEqual({
      index: 0,
      problem: { code: 'tooMany', max: 1 },
    });
  });

  it('reports progress and offers Back only after a step in order', () => {
    const c = content([q('q1', { redirect: { kind: 'question', target: 'q3' } }), q('q2'), q('q3'), q('q4')]);
    const first = runFlow(c, start, []).next;
    expect(first).toMatchObject({ progress: { done: 0, total: 4 }, back: false });
    const afterRedirect = runFlow(c, start, [pick('q1', 'q1a')]).next;
    expect(afterRedirect).toMatchObject({ question: { id: 'q3' }, back: false });
    const inOrder = runFlow(c, start, [pick('q1', 'q1a'), pick('q3', 'q3a')]).next;
    expect(inOrder).toMatchObject({ question: { id: 'q4' }, back: true, progress: { done: 2, total: 3 } });
  });
});

describe('redirects of all nine kinds', () => {
  const build = (kind: string, target: string | null) => {
    const c = content(
      [
        q('q1', { answers: [a('go', { redirect: { kind: kind as never, target } }), a('stay')] }),
        q('q2'),
        q('q3'),
      ],
      [q('q4'), q('q5')],
      [q('q6')],
    );
    c.questionnaires.push(
      newQuestionnaire({ id: 'Q2', blocks: [newBlock({ id: 'X1', questions: [q('x1'), q('x2')] })] }),
    );
    return c;
  };
  it.each([
    ['newQuestionnaire', 'Q2', 'x1'],
    ['questionnaire', 'Q2', 'x1'],
    ['newBlock', 'B3', 'q6'],
    ['block', 'B2', 'q4'],
    ['newQuestionInBlock', 'q3', 'q3'],
    ['questionInBlock', 'q3', 'q3'],
    ['newQuestion', 'q5', 'q5'],
    ['question', 'q5', 'q5'],
    ['completeBlock', null, 'q4'],
  ])('%s → %s', (kind, target, expected) => {
    const c = build(kind, target);
    expect(path(c, [pick('q1', 'go')]).next).toBe(expected);
    expect(path(c, [pick('q1', 'stay')]).next).toBe('q2');
  });

  it('a new questionnaire continues in that questionnaire and its end completes the survey', () => {
    const c = build('questionnaire', 'Q2');
    expect(path(c, [pick('q1', 'go'), pick('x1', 'x1a')]).next).toBe('x2');
    expect(path(c, [pick('q1', 'go'), pick('x1', 'x1a'), pick('x2', 'x2a')]).next).toBe('completed');
  });

  it('complete current block on the last block completes the survey; the question redirect applies when no answer redirects', () => {
    const c = content([q('q1', { redirect: { kind: 'completeBlock', target: null } }), q('q2')]);
    expect(path(c, [pick('q1', 'q1a')]).next).toBe('completed');
  });

  it('never goes round a loop in a draft', () => {
    const c = content([q('q1'), q('q2', { redirect: { kind: 'question', target: 'q1' } })]);
    expect(path(c, [pick('q1', 'q1a'), pick('q2', 'q2a')]).next).toBe('completed');
  });
});

describe('screening', () => {
  const screening = (modes: ('allow' | 'deny' | 'allowIfAny')[]) =>
    content([
      newQuestion({
        id: 's',
        category: 'screening',
        answers: modes.map((m, i) => a(`s${i}`, { screening: m })),
      }),
      q('q2'),
    ]);
  it('deny ends the survey as screened out; allow goes on', () => {
    const c = screening(['allow', 'deny']);
    expect(path(c, [pick('s', 's0')]).next).toBe('q2');
    expect(path(c, [pick('s', 's1')]).next).toBe('screenedOut');
    expect(path(c, [pick('s', 's1'), pick('q2', 'q2a')]).error?.problem.code).toBe('notReachable');
  });
  it('allowIfAny: passes only with an admitting answer', () => {
    const c = screening(['allowIfAny', 'allow', 'allowIfAny']);
    expect(path(c, [pick('s', 's0')]).next).toBe('q2');
    expect(path(c, [pick('s', 's2')]).next).toBe('q2');
    expect(path(c, [pick('s', 's1')]).next).toBe('screenedOut');
  });
});

describe('answer limits and values', () => {
  it('few answers respects the limit; other counts as an answer', () => {
    const few = newQuestion({
      id: 'f',
      category: 'fewAnswers',
      answers: [a('x'), a('y'), a('z')],
      other: '',
      answerLimit: { min: 2, max: 3 },
    });
    const page = { question: few, answers: few.answers, statements: [] };
    expect(checkReply(page, { answers: ['x'] })).toEqual({ code: 'tooFew', min: 2 });
    expect(checkReply(page, { answers: ['x'], other: 'mine' })).toBeNull();
    expect(checkReply(page, { answers: ['x', 'y', 'z'], other: 'mine' })).toEqual({
      code: 'tooMany',
      max: 3,
    });
    expect(replyRows(few, { answers: ['x'], other: ' mine ' })).toEqual([
      { question_id: 'f', answer_id: 'x', statement_id: null, value: null, text: null },
      { question_id: 'f', answer_id: null, statement_id: null, value: null, text: 'mine' },
    ]);
  });
  it('scales refuse values out of range or off the step', () => {
    const nps = newQuestion({ id: 'n', category: 'nps' });
    const slider = newQuestion({ id: 'sl', category: 'slider', scale: { min: 0, max: 100, step: 5 } });
    const stars = newQuestion({ id: 'st', category: 'starRating', stars: 5 });
    const p = (question: Question) => ({ question, answers: [], statements: [] });
    expect(checkReply(p(nps), { value: 10 })).toBeNull();
    expect(checkReply(p(nps), { value: 11 })).toEqual({ code: 'outOfRange', min: 0, max: 10 });
    expect(checkReply(p(slider), { value: 7 })?.code).toBe('outOfRange');
    expect(checkReply(p(slider), { value: 35 })).toBeNull();
    expect(checkReply(p(stars), { value: 0 })?.code).toBe('outOfRange');
    expect(checkReply(p(stars), {})).toEqual({ code: 'required' });
  });
  it('matrix needs one column per row; ranking needs every answer once', () => {
    const m = newQuestion({
      id: 'm',
      category: 'matrix',
      answers: [a('c1'), a('c2')],
      statements: [newStatement({ id: 'r1' }), newStatement({ id: 'r2' })],
    });
    const page = { question: m, answers: m.answers, statements: m.statements };
    expect(checkReply(page, { cells: { r1: 'c1' } })).toEqual({ code: 'required' });
    expect(checkReply(page, { cells: { r1: 'c1', r2: 'c9' } })).toEqual({ code: 'notOffered' });
    expect(checkReply(page, { cells: { r1: 'c1', r2: 'c2' } })).toBeNull();
    const s = newQuestion({ id: 'r', category: 'sortable', answers: [a('x'), a('y')] });
    const sp = { question: s, answers: s.answers, statements: [] };
    expect(checkReply(sp, { answers: ['y', 'x'] })).toBeNull();
    expect(checkReply(sp, { answers: ['y', 'y'] })).toEqual({ code: 'invalid' });
    expect(replyRows(s, { answers: ['y', 'x'] }).map((r) => [r.answer_id, r.value])).toEqual([
      ['y', 1],
      ['x', 2],
    ]);
  });
});

describe('recall filter', () => {
  it('offers only the answers picked (or not picked) earlier, matched by text', () => {
    const src = newQuestion({ id: 'src', category: 'fewAnswers', answers: [a('A'), a('B'), a('C')] });
    const sel = newQuestion({
      id: 'sel',
      answers: [
        newAnswer({ id: 'x', text: 'a' }),
        newAnswer({ id: 'y', text: 'B' }),
        newAnswer({ id: 'z', text: 'C' }),
      ],
      recall: { questionId: 'src', mode: 'selected' },
    });
    const not = newQuestion({
      id: 'not',
      answers: [newAnswer({ id: 'x2', text: 'A' }), newAnswer({ id: 'y2', text: 'B' })],
      recall: { questionId: 'src', mode: 'notSelected' },
    });
    const c = content([src, sel, not, q('end')]);
    const r = runFlow(c, start, [pick('src', 'A', 'C')]);
    expect(r.next.kind === 'page' && r.next.answers.map((x) => x.id)).toEqual(['x', 'z']);
    const r2 = runFlow(c, start, [pick('src', 'A', 'C'), pick('sel', 'x')]);
    expect(r2.next.kind === 'page' && r2.next.answers.map((x) => x.id)).toEqual(['y2']);
    // Everything picked: nothing left to offer in "not selected", so that page is passed through.
    const r3 = runFlow(c, start, [pick('src', 'A', 'B'), pick('sel', 'y')]);
    expect(r3.next.kind === 'page' && r3.next.question.id).toBe('end');
  });
});

describe('the ten shuffle modes', () => {
  const items = ['a', 'b', 'c', 'd', 'e', 'f'];
  const fixed: Record<string, [number, number]> = {
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
  it('keeps every item, keeps the fixed ones in place, and is the same for the same seed', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SHUFFLE_MODES), fc.string(), (mode, seed) => {
        const out = arrange(items, mode, seed);
        expect([...out].sort()).toEqual(items);
        expect(arrange(items, mode, seed)).toEqual(out);
        const [head, tail] = fixed[mode];
        expect(out.slice(0, head)).toEqual(items.slice(0, head));
        expect(out.slice(items.length - tail)).toEqual(items.slice(items.length - tail));
        if (mode.startsWith('reverse')) {
          const middle = out.slice(0, items.length - tail);
          const asWritten = items.slice(0, items.length - tail);
          expect([asWritten, [...asWritten].reverse()]).toContainEqual(middle);
        }
      }),
    );
  });
  it('really shuffles: different seeds give different orders', () => {
    const orders = new Set(Array.from({ length: 50 }, (_, i) => arrange(items, 'shuffle', `s${i}`).join('')));
    expect(orders.size).toBeGreaterThan(30);
    const reversed = Array.from(
      { length: 100 },
      (_, i) => arrange(items, 'reverse', `r${i}`)[0] === 'f',
    ).filter(Boolean).length;
    expect(reversed).toBeGreaterThan(25);
    expect(reversed).toBeLessThan(75);
  });
  it('the page shows the shuffled order, "other" aside, and the same order on replay', () => {
    const c = content([
      q('q1', { answers: items.map((x) => a(x)), shuffle: 'shuffleExceptLast', other: '' }),
    ]);
    const one = runFlow(c, start, []).next;
    const two = runFlow(c, start, []).next;
    expect(one).toEqual(two);
    expect(one.kind === 'page' && one.answers[5].id).toBe('f');
  });
});

describe('any replies', () => {
  it('never throws and never shows a page twice', () => {
    const c = content(
      [q('q1', { redirect: { kind: 'question', target: 'q3' } }), q('q2')],
      [q('q3', { answers: [a('back', { redirect: { kind: 'question', target: 'q1' } }), a('on')] }), q('q4')],
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('q1', 'q2', 'q3', 'q4', 'zz'),
            fc.constantFrom('q1a', 'q3a', 'back', 'on', 'q4b'),
          ),
          { maxLength: 6 },
        ),
        (rs) => {
          const r = runFlow(
            c,
            start,
            rs.map(([questionId, ans]) => pick(questionId, ans)),
          );
          const ids = r.pages.map((p) => p.question.id);
          expect(new Set(ids).size).toBe(ids.length);
        },
      ),
    );
  });

  it('continuing from where an earlier replay stopped gives what a replay from the start gives', () => {
    // The server keeps a respondent's checkpoint between answers (server/survey/respond.ts).
    const c = content(
      [
        q('q1', { redirect: { kind: 'question', target: 'q3' }, shuffle: 'shuffle' }),
        q('q2', {
          category: 'screening',
          answers: [a('in', { screening: 'allow' }), a('out', { screening: 'deny' })],
        }),
      ],
      [
        q('q3', { answers: [a('jump', { redirect: { kind: 'completeBlock', target: null } }), a('on')] }),
        q('q4'),
      ],
      [q('q5'), q('q6')],
    );
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), (choices, junk) => {
        // A walk that answers each page the flow shows, with an answer picked by `choices`.
        const replies: ReturnType<typeof pick>[] = [];
        for (const choice of choices) {
          const next = runFlow(c, start, replies).next;
          if (next.kind !== 'page') break;
          replies.push(pick(next.question.id, next.answers[choice % next.answers.length].id));
        }
        if (junk) replies.push(pick('q6', 'nope'));
        const whole = runFlow(c, start, replies);
        for (let k = 0; k <= replies.length; k++) {
          const { checkpoint } = runFlowFrom(c, start, replies.slice(0, k), null);
          expect(runFlowFrom(c, start, replies, checkpoint).flow).toEqual(whole);
        }
      }),
    );
  });
});
