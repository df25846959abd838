import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importQuestions, type ImportResult } from '../../src/domain/content/import';

// Import from list over real-looking pastes (tests/unit/import-corpus/): Word and Google Docs lists,
// Qualtrics' own Simple and Advanced examples, plain lists in Russian and English. Each must become
// the questions a person sees in it, with the notes that make the editor show a preview first.

const corpus = (name: string) =>
  fs.readFileSync(path.join(import.meta.dirname, 'import-corpus', name), 'utf8');

type Shape = { text: string; category: string; answers: string[]; statements?: string[] };

function shape(r: ImportResult) {
  if (!r.ok) throw new Error(`failed at line ${r.line}: ${r.reason}`);
  return r.blocks.map((b) => ({
    name: b.name,
    questions: b.questions.map((q): Shape => {
      const s: Shape = { text: q.text, category: q.category, answers: q.answers.map((a) => a.text) };
      if (q.statements.length) s.statements = q.statements.map((x) => x.text);
      return s;
    }),
  }));
}

describe('import corpus', () => {
  it('reads Qualtrics’ Simple-format example: text paragraphs before the choices are the question’s text', () => {
    const r = importQuestions(corpus('qualtrics-simple.txt'));
    expect(r.ok && r.format).toBe('qualtrics');
    const [block] = shape(r);
    expect(block.questions.map((q) => q.category)).toEqual(['oneAnswer', 'fewAnswers', 'matrix', 'open']);
    expect(block.questions[0].answers).toEqual(['a', 'b', 'c']);
    expect(block.questions[2]).toEqual({
      text:
        'This question is a matrix question. It has two paragraphs of text before its two groups of choices: ' +
        'the first group holds the statements, the second the scale points.',
      category: 'matrix',
      statements: ['Statement 1', 'Statement 2'],
      answers: ['Scale point 1', 'Scale point 2', 'Scale point 3'],
    });
    expect(r.ok && r.notes).toEqual(['groupsAsText']);
  });

  it('reads a paragraph before a single group of choices as text, not as matrix rows', () => {
    const r = importQuestions(
      '[[SimpleFormat]]\n1. How do you rate the game?\n\nThink about the last month only, not the whole year.\n\nGreat\nFine\nPoor\n',
    );
    expect(shape(r)[0].questions).toEqual([
      {
        text: 'How do you rate the game? Think about the last month only, not the whole year.',
        category: 'oneAnswer',
        answers: ['Great', 'Fine', 'Poor'],
      },
    ]);
  });

  it('reads a Qualtrics Advanced-format export with blocks, IDs, matrix and text entry', () => {
    const r = importQuestions(corpus('qualtrics-advanced.txt'));
    expect(shape(r)).toEqual([
      {
        name: 'Screening',
        questions: [
          {
            text: 'How often do you play mobile games?',
            category: 'oneAnswer',
            answers: ['Every day', 'A few times a week', 'Rarely', 'Never'],
          },
          {
            text: 'Which platforms do you play on?',
            category: 'fewAnswers',
            answers: ['Android', 'iOS', 'Web browser'],
          },
        ],
      },
      {
        name: 'Opinions',
        questions: [
          {
            text: 'How much do you agree with each statement?',
            category: 'matrix',
            statements: ['Ads spoil the game', 'In-game purchases are fair'],
            answers: ['Disagree', 'Neutral', 'Agree'],
          },
          { text: 'What would you change in your favourite game?', category: 'open', answers: [] },
        ],
      },
    ]);
    expect(r.ok && r.notes).toEqual([]);
  });

  it('reads the commonest Russian layout from Word: questions "1." with answers "1)" under each', () => {
    const r = importQuestions(corpus('word-ru-numbered.txt'));
    expect(shape(r)[0].questions).toEqual([
      { text: 'Ваш пол?', category: 'oneAnswer', answers: ['Мужской', 'Женский'] },
      {
        text: 'Сколько вам лет?',
        category: 'oneAnswer',
        answers: ['До 18', '18–24', '25–34', '35 и старше'],
      },
      {
        text: 'В какие жанры игр вы играете? (несколько ответов)',
        category: 'fewAnswers',
        answers: ['Шутеры', 'Головоломки', 'Стратегии', 'Другое'],
      },
    ]);
    expect(r.ok && r.notes).toEqual(['numberedAnswers']);
  });

  it('reads one numbering style that restarts under each question as questions with answers', () => {
    const r = importQuestions(corpus('ru-restarted-numbers.txt'));
    expect(shape(r)[0].questions).toEqual([
      { text: 'Укажите ваш пол', category: 'oneAnswer', answers: ['Мужской', 'Женский'] },
      { text: 'Ваш возраст', category: 'oneAnswer', answers: ['До 18 лет', '18–35 лет', 'Старше 35 лет'] },
      { text: 'Где вы живёте?', category: 'oneAnswer', answers: ['В городе', 'В селе'] },
    ]);
    expect(r.ok && r.notes).toEqual(['restartedNumbers']);
  });

  it('reads a Google Docs list with round bullets and an English multiple-answer hint', () => {
    const r = importQuestions(corpus('google-docs-en.txt'));
    expect(shape(r)[0].questions).toEqual([
      {
        text: 'How often do you play?',
        category: 'oneAnswer',
        answers: ['Every day', 'Once a week', 'Less often'],
      },
      {
        text: 'Which devices do you use? (select all that apply)',
        category: 'fewAnswers',
        answers: ['Phone', 'Tablet', 'Computer'],
      },
      { text: 'What do you like most about the game?', category: 'open', answers: [] },
    ]);
    expect(r.ok && r.notes).toEqual([]);
  });

  it('reads a Word list with Symbol-font bullets, "o" sub-bullets and tabs', () => {
    const r = importQuestions(corpus('word-en-bullets.txt'));
    expect(shape(r)[0].questions).toEqual([
      {
        text: 'How did you hear about us?',
        category: 'oneAnswer',
        answers: ['A friend', 'An advert', 'A search engine'],
      },
      {
        text: 'What do you use the app for? (Check all that apply)',
        category: 'fewAnswers',
        answers: ['Work', 'Study', 'Fun'],
      },
    ]);
  });

  it('reads plain lists in Russian (blank-line separated) and English (numbered, lettered answers)', () => {
    expect(shape(importQuestions(corpus('plain-ru.txt')))[0].questions).toEqual([
      {
        text: 'Как часто вы играете в мобильные игры?',
        category: 'oneAnswer',
        answers: ['Каждый день', 'Несколько раз в неделю', 'Реже'],
      },
      {
        text: 'Что для вас важнее всего в игре? (можно выбрать несколько вариантов)',
        category: 'fewAnswers',
        answers: ['Сюжет', 'Графика', 'Игра с друзьями'],
      },
      { text: 'Что бы вы изменили?', category: 'open', answers: [] },
    ]);
    expect(shape(importQuestions(corpus('plain-en.txt')))[0].questions).toEqual([
      { text: 'Do you own a games console?', category: 'oneAnswer', answers: ['Yes', 'No'] },
      {
        text: 'Which genres do you enjoy? (Select all that apply)',
        category: 'fewAnswers',
        answers: ['Racing', 'Puzzle', 'Strategy'],
      },
      { text: 'Any other comments?', category: 'open', answers: [] },
    ]);
  });

  it('keeps a plain numbered list of questions as questions, with no note', () => {
    const r = importQuestions('1. First?\n2. Second?\n3) Third?\n');
    expect(shape(r)[0].questions.map((q) => q.category)).toEqual(['open', 'open', 'open']);
    expect(r.ok && r.notes).toEqual([]);
  });

  it('still refuses what cannot be read, at its line', () => {
    expect(importQuestions('[[Question:CS]]\nConstant sum')).toMatchObject({
      ok: false,
      reason: 'unsupportedType',
    });
    expect(importQuestions('Intro\n1. Q\nA')).toMatchObject({
      ok: false,
      line: 1,
      reason: 'textBeforeFirstQuestion',
    });
  });
});
