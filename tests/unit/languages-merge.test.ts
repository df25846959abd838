import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareContent } from '../../src/domain/content/compare';
import { diffContent, summarizeChanges } from '../../src/domain/content/diff';
import { newAnswer, newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';
import { localized, translation } from '../../src/domain/content/languages';
import { mergeContent } from '../../src/domain/content/merge';
import type { ProjectContent } from '../../src/domain/content/model';

// The merge and the version history treat each language's text as a field of its own (issue 32):
// two people translating different languages never conflict; the same text translated differently
// on both sides is a conflict named by its language.

const LANGS = ['ru', 'en', 'de'];

function base(questions = 6, answers = 3): ProjectContent {
  return {
    languages: LANGS,
    portraits: [],
    questionnaires: [
      newQuestionnaire({
        id: 'qn',
        blocks: [
          newBlock({
            id: 'b',
            questions: Array.from({ length: questions }, (_, q) =>
              newQuestion({
                id: `q${q}`,
                text: `Вопрос ${q}`,
                answers: Array.from({ length: answers }, (_, a) =>
                  newAnswer({ id: `q${q}a${a}`, text: `Ответ ${a}` }),
                ),
              }),
            ),
          }),
        ],
      }),
    ],
  };
}

type Edit = { q: number; a: number | null; text: string };

/** The content with these texts set in one language (a = null: the question's own text). */
function translate(content: ProjectContent, language: string, edits: Edit[]): ProjectContent {
  const c = structuredClone(content);
  const qs = c.questionnaires[0].blocks[0].questions;
  for (const e of edits) {
    const item = e.a === null ? qs[e.q] : qs[e.q].answers[e.a];
    item.translations = {
      ...item.translations,
      [language]: { ...item.translations?.[language], text: e.text },
    };
  }
  return c;
}

const items = (c: ProjectContent) =>
  c.questionnaires[0].blocks[0].questions.flatMap(
    (q) => [q, ...q.answers] as { translations?: Record<string, unknown> }[],
  );

describe('merging translations', () => {
  it('two people translating different languages of the same items never conflict', () => {
    const b = base();
    const mine = translate(b, 'en', [
      { q: 0, a: null, text: 'Question 0' },
      { q: 0, a: 1, text: 'Answer 1' },
    ]);
    const theirs = translate(b, 'de', [
      { q: 0, a: null, text: 'Frage 0' },
      { q: 0, a: 1, text: 'Antwort 1' },
    ]);
    const { content, conflicts } = mergeContent(b, mine, theirs);
    expect(conflicts).toEqual([]);
    const q = content.questionnaires[0].blocks[0].questions[0];
    expect(q.translations).toEqual({ en: { text: 'Question 0' }, de: { text: 'Frage 0' } });
    expect(q.answers[1].translations).toEqual({ en: { text: 'Answer 1' }, de: { text: 'Antwort 1' } });
    expect(localized(q, 'text', 'de', content)).toBe('Frage 0');
  });

  it('two fields of one language on one item merge too (text here, the "Other" label there)', () => {
    const b = base();
    b.questionnaires[0].blocks[0].questions[0].other = 'Другое';
    const mine = translate(b, 'en', [{ q: 0, a: null, text: 'Question 0' }]);
    const theirs = structuredClone(b);
    theirs.questionnaires[0].blocks[0].questions[0].translations = { en: { other: 'Other' } };
    const { content, conflicts } = mergeContent(b, mine, theirs);
    expect(conflicts).toEqual([]);
    expect(content.questionnaires[0].blocks[0].questions[0].translations).toEqual({
      en: { text: 'Question 0', other: 'Other' },
    });
  });

  it('the same text translated differently on both sides is a conflict named by its language', () => {
    const b = base();
    const mine = translate(b, 'en', [{ q: 2, a: null, text: 'How often?' }]);
    const theirs = translate(b, 'en', [{ q: 2, a: null, text: 'How frequently?' }]);
    const first = mergeContent(b, mine, theirs);
    expect(first.conflicts.map((c) => [c.id, c.fields])).toEqual([['q2', ['translations.en.text']]]);
    expect(first.conflicts[0].mine?.['translations.en.text']).toBe('How often?');
    expect(first.conflicts[0].theirs?.['translations.en.text']).toBe('How frequently?');
    // Unresolved keeps mine; choosing theirs takes theirs, for that text only.
    const q = (c: ProjectContent) => c.questionnaires[0].blocks[0].questions[2];
    expect(translation(q(first.content), 'text', 'en', b)).toBe('How often?');
    const chosen = mergeContent(b, mine, theirs, { q2: 'theirs' });
    expect(translation(q(chosen.content), 'text', 'en', b)).toBe('How frequently?');
  });

  it('a source text changed on one side and its translation on the other both stay', () => {
    const b = base();
    const mine = structuredClone(b);
    mine.questionnaires[0].blocks[0].questions[1].text = 'Вопрос один';
    const theirs = translate(b, 'en', [{ q: 1, a: null, text: 'Question one' }]);
    const { content, conflicts } = mergeContent(b, mine, theirs);
    expect(conflicts).toEqual([]);
    const q = content.questionnaires[0].blocks[0].questions[1];
    expect(q.text).toBe('Вопрос один');
    expect(q.translations).toEqual({ en: { text: 'Question one' } });
  });

  it('property: disjoint languages merge to both sides’ texts with no conflict, in either order', () => {
    const edit = fc.record({
      q: fc.nat({ max: 5 }),
      a: fc.option(fc.nat({ max: 2 }), { nil: null }),
      text: fc.string({ minLength: 1, maxLength: 8 }),
    });
    fc.assert(
      fc.property(fc.array(edit, { maxLength: 12 }), fc.array(edit, { maxLength: 12 }), (en, de) => {
        const b = base();
        const mine = translate(b, 'en', en);
        const theirs = translate(b, 'de', de);
        for (const [x, y] of [
          [mine, theirs],
          [theirs, mine],
        ]) {
          const { content, conflicts } = mergeContent(b, x, y);
          expect(conflicts).toEqual([]);
          const got = items(content);
          const want = items(translate(translate(b, 'en', en), 'de', de));
          got.forEach((it, i) => {
            expect({ ...it.translations }).toEqual({ ...want[i].translations });
          });
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('merging the language list', () => {
  const withLanguages = (c: ProjectContent, languages: string[]) => ({ ...structuredClone(c), languages });
  const ruOnly = withLanguages(base(), ['ru']);

  it('keeps the languages both people added, the source first', () => {
    const mine = translate(withLanguages(ruOnly, ['ru', 'en']), 'en', [{ q: 0, a: null, text: 'Q' }]);
    const theirs = translate(withLanguages(ruOnly, ['ru', 'de']), 'de', [{ q: 1, a: null, text: 'F' }]);
    const { content, conflicts } = mergeContent(ruOnly, mine, theirs);
    expect(conflicts).toEqual([]);
    expect(content.languages).toEqual(['ru', 'en', 'de']);
  });

  it('drops a language one side removed, unless the other translated into it meanwhile', () => {
    const b = translate(base(), 'de', [{ q: 0, a: null, text: 'F' }]);
    const removed = translate(withLanguages(b, ['ru', 'en']), 'de', []);
    removed.questionnaires[0].blocks[0].questions[0].translations = undefined;
    const untouched = structuredClone(b);
    expect(mergeContent(b, removed, untouched).content.languages).toEqual(['ru', 'en']);
    const translated = translate(b, 'de', [{ q: 3, a: null, text: 'Neu' }]);
    const kept = mergeContent(b, removed, translated);
    expect(kept.content.languages).toEqual(['ru', 'en', 'de']);
    expect(kept.content.questionnaires[0].blocks[0].questions[3].translations).toEqual({
      de: { text: 'Neu' },
    });
  });

  it('leaves content that names no languages without the key', () => {
    const old = { ...base() };
    delete old.languages;
    expect('languages' in mergeContent(old, old, structuredClone(old)).content).toBe(false);
  });
});

describe('the history of translations', () => {
  it('names the changed text by its language, as a word diff', () => {
    const b = base();
    const after = translate(b, 'en', [{ q: 3, a: null, text: 'How often do you play?' }]);
    const diff = diffContent(b, after);
    expect(diff.map((d) => [d.id, d.change, d.fields])).toEqual([
      ['q3', 'changed', ['translations.en.text']],
    ]);
    expect(summarizeChanges(b, after).map((s) => s.code)).toEqual(['008']);
    const [entry] = compareContent(b, after);
    expect(entry.fields).toEqual([
      {
        field: 'translations.en.text',
        type: 'words',
        parts: [{ op: 'added', text: 'How often do you play?' }],
      },
    ]);
  });

  it('sees no change when the translations are the same', () => {
    const b = translate(base(), 'en', [{ q: 0, a: null, text: 'Q' }]);
    expect(diffContent(b, structuredClone(b))).toEqual([]);
  });
});
