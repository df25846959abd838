import fc from 'fast-check';
import type { Command } from '../../src/domain/content/commands';
import {
  newAnswer,
  newBlock,
  newPortrait,
  newQuestion,
  newQuestionnaire,
  newStatement,
} from '../../src/domain/content/factory';
import {
  QUESTION_CATEGORIES,
  REDIRECT_KINDS,
  SHUFFLE_MODES,
  type ProjectContent,
  type Question,
  type QuestionCategory,
} from '../../src/domain/content/model';

// Content for the tests and the benchmarks: a generated large project, and fast-check arbitraries
// for random content and random edit sequences.

/** A realistic project: `blocks` blocks of `questions` one-answer questions with `answers` answers each. */
export function bigProject(
  opts: { blocks?: number; questions?: number; answers?: number } = {},
): ProjectContent {
  const { blocks = 50, questions = 20, answers = 5 } = opts;
  return {
    portraits: [],
    questionnaires: [
      newQuestionnaire({
        id: 'qn0',
        blocks: Array.from({ length: blocks }, (_, b) =>
          newBlock({
            id: `b${b}`,
            name: `Block ${b + 1}`,
            questions: Array.from({ length: questions }, (_, q) =>
              newQuestion({
                id: `q${b}_${q}`,
                text: `Question ${b + 1}.${q + 1}: how often do you play in the evening?`,
                category: 'oneAnswer',
                answers: Array.from({ length: answers }, (_, a) =>
                  newAnswer({ id: `a${b}_${q}_${a}`, text: `Answer ${a + 1}` }),
                ),
              }),
            ),
          }),
        ),
      }),
    ],
  };
}

const shortText = fc.string({ maxLength: 12 });

/** Random content with every category, random redirects (good, bad and circular), recalls and portraits. */
export const arbContent: fc.Arbitrary<ProjectContent> = fc
  .record({
    shape: fc.array(
      fc.array(
        fc.array(
          fc.record({
            category: fc.constantFrom(...QUESTION_CATEGORIES),
            answers: fc.nat(4),
            text: shortText,
          }),
          { maxLength: 4 },
        ),
        { maxLength: 3 },
      ),
      { maxLength: 3 },
    ),
    links: fc.array(
      fc.record({
        from: fc.nat(),
        answer: fc.option(fc.nat(), { nil: undefined }),
        kind: fc.constantFrom(...REDIRECT_KINDS),
        to: fc.nat(),
        garbage: fc.boolean(),
      }),
      { maxLength: 8 },
    ),
    recalls: fc.array(fc.record({ from: fc.nat(), to: fc.nat() }), { maxLength: 3 }),
    portraits: fc.array(
      fc.record({
        respondents: fc.integer({ min: -5, max: 200_000 }),
        field: fc.constantFrom('gender', 'age', 'city', 'education', 'planet'),
        values: fc.array(fc.constantFrom('male', 'female', 'higher', 'MOS:Moscow', 'x'), { maxLength: 3 }),
        min: fc.option(fc.integer({ min: 0, max: 120 }), { nil: null }),
        max: fc.option(fc.integer({ min: 0, max: 120 }), { nil: null }),
        questionnaire: fc.option(fc.nat(), { nil: null }),
      }),
      { maxLength: 3 },
    ),
    limit: fc.option(fc.record({ min: fc.nat(6), max: fc.nat(6) }), { nil: null }),
    shuffle: fc.constantFrom(...SHUFFLE_MODES),
  })
  .map(({ shape, links, recalls, portraits, limit, shuffle }) => {
    const content: ProjectContent = {
      portraits: [],
      questionnaires: shape.map((blocks) =>
        newQuestionnaire({
          blocks: blocks.map((qs) =>
            newBlock({
              questions: qs.map((q) =>
                newQuestion({
                  category: q.category,
                  text: q.text,
                  answers: Array.from({ length: q.answers }, (_, i) =>
                    newAnswer({ text: i % 3 === 2 ? '' : `a${i}` }),
                  ),
                  statements: q.category === 'matrix' ? [newStatement({ text: 'row' })] : [],
                  answerLimit: q.category === 'fewAnswers' ? limit : null,
                  shuffle: q.category === 'oneAnswer' ? shuffle : 'none',
                }),
              ),
            }),
          ),
        }),
      ),
    };
    const questions: Question[] = content.questionnaires.flatMap((qn) =>
      qn.blocks.flatMap((b) => b.questions),
    );
    const targets = [
      ...content.questionnaires.map((x) => x.id),
      ...content.questionnaires.flatMap((x) => x.blocks.map((b) => b.id)),
      ...questions.map((q) => q.id),
    ];
    if (questions.length > 0) {
      for (const l of links) {
        const q = questions[l.from % questions.length];
        const redirect = {
          kind: l.kind,
          target: l.garbage ? 'nowhere' : targets.length ? targets[l.to % targets.length] : null,
        };
        if (l.answer !== undefined && q.answers.length > 0)
          q.answers[l.answer % q.answers.length].redirect = redirect;
        else q.redirect = redirect;
      }
      for (const r of recalls)
        questions[r.from % questions.length].recall = {
          questionId: questions[r.to % questions.length].id,
          mode: 'selected',
        };
    }
    content.portraits = portraits.map((p) =>
      newPortrait({
        respondents: p.respondents,
        questionnaireId:
          p.questionnaire === null || content.questionnaires.length === 0
            ? null
            : content.questionnaires[p.questionnaire % content.questionnaires.length].id,
        params: [{ field: p.field, values: p.values, min: p.min, max: p.max }],
      }),
    );
    return content;
  });

/** A random edit, resolved against the content it is applied to (so it usually names real items). */
export const arbEditSeed = fc.record({
  kind: fc.nat(19),
  a: fc.nat(),
  b: fc.nat(),
  text: shortText,
  category: fc.constantFrom<QuestionCategory>(...QUESTION_CATEGORIES),
  redirectKind: fc.constantFrom(...REDIRECT_KINDS),
});
export type EditSeed = typeof arbEditSeed extends fc.Arbitrary<infer T> ? T : never;

export function commandFor(content: ProjectContent, s: EditSeed): Command {
  const qns = content.questionnaires;
  const blocks = qns.flatMap((q) => q.blocks);
  const questions = blocks.flatMap((b) => b.questions);
  const pick = <T>(list: T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined);
  const qn = pick(qns, s.a);
  const block = pick(blocks, s.a);
  const q = pick(questions, s.a);
  const answer = q && pick(q.answers, s.b);
  const missing = 'missing-id';
  switch (s.kind) {
    case 0:
      return { type: 'questionnaire.add' };
    case 1:
      return { type: 'questionnaire.delete', questionnaireId: qn?.id ?? missing };
    case 2:
      return { type: 'block.add', questionnaireId: qn?.id ?? missing, index: s.b % 5 };
    case 3:
      return { type: 'block.delete', blockId: block?.id ?? missing };
    case 4:
      return { type: 'block.update', blockId: block?.id ?? missing, patch: { name: s.text } };
    case 5:
    case 6:
      return {
        type: 'question.add',
        blockId: block?.id ?? missing,
        index: s.b % 7,
        question: { text: s.text, category: s.category },
      };
    case 7:
      return { type: 'question.delete', questionId: q?.id ?? missing };
    case 8:
      return { type: 'question.update', questionId: q?.id ?? missing, patch: { text: s.text } };
    case 9:
      return { type: 'question.setCategory', questionId: q?.id ?? missing, category: s.category };
    case 10:
      return {
        type: 'question.move',
        questionId: q?.id ?? missing,
        toBlockId: pick(blocks, s.b)?.id ?? missing,
        index: s.b % 4,
      };
    case 11:
      return { type: 'answer.add', questionId: q?.id ?? missing, answer: { text: s.text } };
    case 12:
      return {
        type: 'answer.update',
        questionId: q?.id ?? missing,
        answerId: answer?.id ?? missing,
        patch: { text: s.text },
      };
    case 13:
      return { type: 'answer.delete', questionId: q?.id ?? missing, answerId: answer?.id ?? missing };
    case 14:
      return {
        type: 'answer.move',
        questionId: q?.id ?? missing,
        answerId: answer?.id ?? missing,
        index: s.b % 3,
      };
    case 15: {
      const target = pick(questions, s.b);
      const kind = s.redirectKind;
      const isNew = kind.startsWith('new');
      return {
        type: 'redirect.set',
        questionId: q?.id ?? missing,
        answerId: s.b % 2 ? answer?.id : undefined,
        redirect: { kind, target: isNew ? null : (target?.id ?? null) },
      };
    }
    case 16:
      return { type: 'portrait.add', portrait: { name: s.text } };
    case 17:
      return {
        type: 'portrait.update',
        portraitId: pick(content.portraits, s.a)?.id ?? missing,
        patch: { respondents: s.b % 1000 },
      };
    case 18:
      return { type: 'portrait.delete', portraitId: pick(content.portraits, s.a)?.id ?? missing };
    default:
      return { type: 'statement.add', questionId: q?.id ?? missing, statement: { text: s.text } };
  }
}

/** The project a draft of bigProject() belongs to, as the editor's autosave benches store it. */
export const BENCH_PROJECT = {
  pid: 1,
  name: 'Bench',
  type: 1,
  template: 'default',
  status: 1,
  editable: true,
  permissions: { blockSettings: false, customParams: false },
};
