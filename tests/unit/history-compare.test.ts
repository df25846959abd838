import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareContent, wordDiff, type WordPart } from '../../src/domain/content/compare';
import {
  newAnswer,
  newBlock,
  newPortrait,
  newQuestion,
  newQuestionnaire,
  newStatement,
} from '../../src/domain/content/factory';
import type { ProjectContent } from '../../src/domain/content/model';

// The history's "Compare" (issue #26) shaped for the panel: each changed field then and now, texts
// as a word diff, a question's answers added and removed by name, other fields before → after.

const side = (parts: WordPart[], op: 'removed' | 'added') =>
  parts
    .filter((p) => p.op === 'same' || p.op === op)
    .map((p) => p.text)
    .join('');

describe('wordDiff', () => {
  it('marks the changed words and keeps the rest', () => {
    expect(wordDiff('How old are you?', 'How old were you?')).toEqual([
      { op: 'same', text: 'How old ' },
      { op: 'removed', text: 'are' },
      { op: 'added', text: 'were' },
      { op: 'same', text: ' you?' },
    ]);
    // Neighbouring changed words read as one run: removed first, then added.
    expect(wordDiff('the big red dog', 'the small blue dog')).toEqual([
      { op: 'same', text: 'the ' },
      { op: 'removed', text: 'big red' },
      { op: 'added', text: 'small blue' },
      { op: 'same', text: ' dog' },
    ]);
  });

  it('punctuation is a word of its own: a word added before "?" keeps the sign', () => {
    expect(wordDiff('How old are you?', 'How old were you last year?')).toEqual([
      { op: 'same', text: 'How old ' },
      { op: 'removed', text: 'are' },
      { op: 'added', text: 'were' },
      { op: 'same', text: ' you' },
      { op: 'added', text: ' last year' },
      { op: 'same', text: '?' },
    ]);
    expect(wordDiff('Ваш город, регион?', 'Ваш город и регион?')).toEqual([
      { op: 'same', text: 'Ваш город' },
      { op: 'removed', text: ', ' },
      { op: 'added', text: ' и ' },
      { op: 'same', text: 'регион?' },
    ]);
  });

  it('a word added or removed alone', () => {
    expect(wordDiff('Your age', 'Your exact age')).toEqual([
      { op: 'same', text: 'Your ' },
      { op: 'added', text: 'exact ' },
      { op: 'same', text: 'age' },
    ]);
    expect(wordDiff('same text', 'same text')).toEqual([{ op: 'same', text: 'same text' }]);
    expect(wordDiff('', 'new')).toEqual([{ op: 'added', text: 'new' }]);
    expect(wordDiff('old', '')).toEqual([{ op: 'removed', text: 'old' }]);
  });

  it('always gives back both texts exactly (the old from kept + removed, the new from kept + added)', () => {
    const words = fc.constantFrom('a', 'b', 'cat', 'dog', ' ', '  ', '\n', 'Ёж', '?');
    const text = fc.array(words, { maxLength: 30 }).map((w) => w.join(''));
    fc.assert(
      fc.property(text, text, (a, b) => {
        const parts = wordDiff(a, b);
        expect(side(parts, 'removed')).toBe(a);
        expect(side(parts, 'added')).toBe(b);
        // No empty parts, no two neighbours of the same kind.
        for (let i = 0; i < parts.length; i++) {
          expect(parts[i].text).not.toBe('');
          if (i > 0) expect(parts[i].op).not.toBe(parts[i - 1].op);
        }
      }),
    );
  });

  it('a text at the length limit is compared word by word', () => {
    const a = Array.from({ length: 330 }, (_, i) => `w${i}`).join(' ');
    const b = a.replace('w100 ', 'changed ');
    const parts = wordDiff(a, b);
    expect(parts.filter((p) => p.op !== 'same')).toEqual([
      { op: 'removed', text: 'w100' },
      { op: 'added', text: 'changed' },
    ]);
  });
});

function content(): ProjectContent {
  return {
    questionnaires: [
      newQuestionnaire({
        id: 'qn',
        blocks: [
          newBlock({
            id: 'b1',
            questions: [
              newQuestion({
                id: 'q1',
                text: 'Which colour do you like?',
                answers: [
                  newAnswer({ id: 'a1', text: 'Red' }),
                  newAnswer({ id: 'a2', text: 'Green' }),
                  newAnswer({ id: 'a3', text: 'Blue' }),
                ],
              }),
              newQuestion({ id: 'q2', text: 'Rate us', category: 'starRating', stars: 5 }),
              newQuestion({
                id: 'q3',
                text: 'Grid',
                category: 'matrix',
                answers: [newAnswer({ id: 'c1', text: 'Yes' })],
                statements: [newStatement({ id: 's1', text: 'Row one' })],
              }),
            ],
          }),
        ],
      }),
    ],
    portraits: [newPortrait({ id: 'p1', name: 'Youth', respondents: 100 })],
  };
}

describe('compareContent', () => {
  it('a question with new wording and answers added and removed: one entry with all of it', () => {
    const before = content();
    const after = structuredClone(before);
    const q = after.questionnaires[0].blocks[0].questions[0];
    q.text = 'Which colours do you really like?';
    q.answers = [q.answers[0], q.answers[2], newAnswer({ id: 'a4', text: 'Purple' })];
    const entries = compareContent(before, after);
    expect(entries).toHaveLength(1);
    const [e] = entries;
    expect(e).toMatchObject({ key: 'q1', kind: 'question', change: 'changed', label: q.text });
    expect(e.added).toEqual([{ kind: 'answer', label: 'Purple' }]);
    expect(e.removed).toEqual([{ kind: 'answer', label: 'Green' }]);
    expect(e.fields).toEqual([
      {
        field: 'text',
        type: 'words',
        parts: [
          { op: 'same', text: 'Which ' },
          { op: 'removed', text: 'colour' },
          { op: 'added', text: 'colours' },
          { op: 'same', text: ' do you ' },
          { op: 'added', text: 'really ' },
          { op: 'same', text: 'like?' },
        ],
      },
    ]);
  });

  it('answers added alone still name their question; statements likewise', () => {
    const before = content();
    const after = structuredClone(before);
    after.questionnaires[0].blocks[0].questions[2].statements.push(
      newStatement({ id: 's2', text: 'Row two' }),
    );
    const [e] = compareContent(before, after);
    expect(e).toMatchObject({ key: 'q3', kind: 'question', change: 'changed', label: 'Grid', fields: [] });
    expect(e.added).toEqual([{ kind: 'statement', label: 'Row two' }]);
    expect(e.removed).toEqual([]);
  });

  it('numbers and settings come before → after; an answer renamed is its own entry with its words', () => {
    const before = content();
    const after = structuredClone(before);
    after.questionnaires[0].blocks[0].questions[1].stars = 10;
    after.questionnaires[0].blocks[0].questions[1].shuffle = 'shuffle';
    after.questionnaires[0].blocks[0].questions[0].answers[0].text = 'Dark red';
    after.portraits[0].respondents = 250;
    const entries = compareContent(before, after);
    const byKey = new Map(entries.map((e) => [e.key, e]));
    expect(byKey.get('q2')!.fields).toEqual(
      expect.arrayContaining([
        { field: 'stars', type: 'value', before: 5, after: 10 },
        { field: 'shuffle', type: 'value', before: 'none', after: 'shuffle' },
      ]),
    );
    expect(byKey.get('a1')!.fields).toEqual([
      {
        field: 'text',
        type: 'words',
        parts: [
          { op: 'removed', text: 'Red' },
          { op: 'added', text: 'Dark red' },
        ],
      },
    ]);
    expect(byKey.get('p1')!.fields).toEqual([
      { field: 'respondents', type: 'value', before: 100, after: 250 },
    ]);
  });

  it('items added, removed and moved are listed by name without fields', () => {
    const before = content();
    const after = structuredClone(before);
    const qs = after.questionnaires[0].blocks[0].questions;
    qs.splice(1, 1); // q2 removed, with its answers (not listed apart)
    qs.push(newQuestion({ id: 'q9', text: 'New one', answers: [newAnswer({ id: 'n1', text: 'x' })] }));
    const entries = compareContent(before, after);
    expect(entries.map((e) => [e.key, e.change, e.label])).toEqual([
      ['q2', 'removed', 'Rate us'],
      ['q9', 'added', 'New one'],
    ]);
    expect(entries.every((e) => e.fields.length === 0 && e.added.length === 0)).toBe(true);
  });

  it('the same content compares to nothing', () => {
    expect(compareContent(content(), content())).toEqual([]);
  });
});
