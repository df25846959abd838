import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { LANGUAGE_NAMES } from '../../src/domain/content/languageNames';
import { languageNameTable } from '../../scripts/language-names';
import { newAnswer, newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';
import {
  acceptedLanguages,
  contentLanguages,
  languageName,
  localized,
  nativeLanguageName,
  pickLanguage,
  SUPPORTED_LANGUAGES,
  translation,
} from '../../src/domain/content/languages';
import { ContentSchema, readContent, type ProjectContent } from '../../src/domain/content/model';
import { checkContent } from '../../src/domain/content/rules';
import { isTranslationProblem } from '../../src/domain/content/translation-rules';

// The model of a questionnaire in several languages (issue 32): old content reads unchanged, one
// accessor falls back to the source, the schema refuses unknown codes, duplicates and translations
// into a language the content does not list.

// The accessor's view of an item (no category rules applied: every text field at once).
const question = {
  text: 'Как часто вы играете?',
  other: 'Другое',
  scaleLabels: { min: 'Ни за что', max: 'Обязательно' },
  translations: { en: { text: 'How often do you play?', scaleMin: 'Not at all' } },
};
const bilingual = { languages: ['ru', 'en'] };

function content(over: Partial<ProjectContent> & Record<string, unknown> = {}): unknown {
  return {
    questionnaires: [
      newQuestionnaire({
        id: 'qn',
        blocks: [
          newBlock({
            id: 'b',
            questions: [
              newQuestion({ id: 'q', text: 'Вопрос', answers: [newAnswer({ id: 'a', text: 'Да' })] }),
            ],
          }),
        ],
      }),
    ],
    portraits: [],
    ...over,
  };
}

describe('old content', () => {
  it('reads unchanged: no languages key is added, and it is Russian only', () => {
    const raw = content();
    const json = JSON.stringify(raw);
    const parsed = readContent(JSON.parse(json))!;
    expect(parsed).not.toBeNull();
    expect('languages' in parsed).toBe(false);
    expect(JSON.stringify(parsed)).toBe(json);
    expect(contentLanguages(parsed)).toEqual(['ru']);
    const q = parsed.questionnaires[0].blocks[0].questions[0];
    expect('translations' in q).toBe(false);
    expect(localized(q, 'text', 'en', parsed)).toBe('Вопрос');
    expect(localized(q, 'text', 'ru', parsed)).toBe('Вопрос');
  });
});

describe('localized and translation', () => {
  it('gives the translation where there is one and the source elsewhere', () => {
    expect(localized(question, 'text', 'en', bilingual)).toBe('How often do you play?');
    expect(localized(question, 'scaleMin', 'en', bilingual)).toBe('Not at all');
    expect(localized(question, 'scaleMax', 'en', bilingual)).toBe('Обязательно');
    expect(localized(question, 'other', 'en', bilingual)).toBe('Другое');
    expect(localized(question, 'text', 'ru', bilingual)).toBe('Как часто вы играете?');
  });

  it('reads a missing or blank translation as missing', () => {
    expect(translation(question, 'scaleMax', 'en', bilingual)).toBeUndefined();
    expect(translation(question, 'other', 'en', bilingual)).toBeUndefined();
    const blank = { ...question, translations: { en: { text: '   ' } } };
    expect(translation(blank, 'text', 'en', bilingual)).toBeUndefined();
    expect(localized(blank, 'text', 'en', bilingual)).toBe('Как часто вы играете?');
  });

  it('ignores a translation in a language the content does not list', () => {
    expect(translation(question, 'text', 'en', { languages: ['ru'] })).toBeUndefined();
    expect(localized(question, 'text', 'en', {})).toBe('Как часто вы играете?');
  });

  it('gives the source text for the source language, whatever it is', () => {
    const english = { languages: ['en', 'ru'] };
    const q = { text: 'Hello', translations: { ru: { text: 'Привет' } } };
    expect(localized(q, 'text', 'en', english)).toBe('Hello');
    expect(localized(q, 'text', 'ru', english)).toBe('Привет');
  });
});

describe('names and choice of language', () => {
  it('names every supported language through Intl.DisplayNames', () => {
    for (const code of SUPPORTED_LANGUAGES) {
      expect(languageName(code, 'en')).not.toBe(code);
      expect(nativeLanguageName(code)).not.toBe(code);
    }
    expect(languageName('en', 'en')).toBe('English');
    expect(languageName('en', 'ru')).toBe('Английский');
    expect(nativeLanguageName('ru')).toBe('Русский');
  });

  it("holds Intl.DisplayNames' names of the supported languages in a table, and asks Intl for others", async () => {
    // The table spares the editor's first frame ICU's display-name data; it must say what Intl says.
    // Stale: `npx tsx scripts/language-names.ts`.
    expect(LANGUAGE_NAMES).toEqual(languageNameTable());
    expect(languageName('en', 'de')).toBe('Englisch');
    expect(languageName('haw', 'en')).toBe('Hawaiian');
    expect(languageName('de', 'ru', false)).toBe('немецкий');
  });

  it('takes the first wish the questionnaire has, by primary subtag too, else the source', () => {
    const c = { languages: ['ru', 'en', 'de'] };
    expect(pickLanguage(c, ['de', 'en'])).toBe('de');
    expect(pickLanguage(c, [null, 'fr', 'en-GB'])).toBe('en');
    expect(pickLanguage(c, ['fr'])).toBe('ru');
    expect(pickLanguage({}, ['en'])).toBe('ru');
  });

  it('orders Accept-Language by weight', () => {
    expect(acceptedLanguages('fr;q=0.5, en-US, de;q=0.8, *;q=0.1, es;q=0')).toEqual(['en-US', 'de', 'fr']);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });
});

describe('the schema', () => {
  const issues = (raw: unknown) => {
    const r = v.safeParse(ContentSchema, raw);
    return r.success ? [] : r.issues.map((i) => [v.getDotPath(i), i.message]);
  };

  it('takes listed languages and their translations', () => {
    const raw = content({ languages: ['ru', 'en'] }) as ProjectContent;
    raw.questionnaires[0].blocks[0].questions[0].translations = { en: { text: 'Question' } };
    raw.questionnaires[0].blocks[0].questions[0].answers[0].translations = { en: { text: 'Yes' } };
    expect(issues(raw)).toEqual([]);
  });

  it('refuses an unknown code, a duplicate and an empty list', () => {
    expect(issues(content({ languages: ['ru', 'xx'] }))).toEqual([['languages.1', 'language']]);
    expect(issues(content({ languages: ['ru', 'en', 'ru'] }))).toEqual([
      ['languages.2', 'languageDuplicate'],
    ]);
    expect(issues(content({ languages: [] }))).toEqual([['languages', 'required']]);
  });

  it('refuses a translation in a language not listed, or in the source language, naming the item', () => {
    const raw = content({ languages: ['ru', 'en'] }) as ProjectContent;
    raw.questionnaires[0].blocks[0].questions[0].answers[0].translations = { de: { text: 'Ja' } };
    raw.questionnaires[0].blocks[0].questions[0].translations = { ru: { text: 'Вопрос' } };
    expect(issues(raw)).toEqual([
      ['questionnaires.0.blocks.0.questions.0.translations.ru', 'languageNotListed'],
      ['questionnaires.0.blocks.0.questions.0.answers.0.translations.de', 'languageNotListed'],
    ]);
  });

  it('refuses a field an item does not have in its translations', () => {
    const raw = content({ languages: ['ru', 'en'] }) as ProjectContent;
    (
      raw.questionnaires[0].blocks[0].questions[0].answers[0] as unknown as Record<string, unknown>
    ).translations = { en: { other: 'Other' } };
    expect(issues(raw)).toEqual([
      ['questionnaires.0.blocks.0.questions.0.answers.0.translations.en.other', 'unknownField'],
    ]);
  });
});

describe('problems of a missing translation', () => {
  const rules = (c: ProjectContent) =>
    checkContent(c, { projectType: 1 })
      .filter(isTranslationProblem)
      .map((p) => [p.rule, p.path, p.params, p.severity]);

  function survey(): ProjectContent {
    return {
      languages: ['ru', 'en'],
      portraits: [],
      questionnaires: [
        newQuestionnaire({
          id: 'qn',
          blocks: [
            newBlock({
              id: 'b',
              questions: [
                newQuestion({
                  id: 'q1',
                  text: 'Пол',
                  other: 'Иное',
                  answers: [
                    newAnswer({ id: 'a1', text: 'Ж' }),
                    newAnswer({ id: 'a2', text: '', picture: null }),
                  ],
                  translations: { en: { text: 'Gender' } },
                }),
                newQuestion({
                  id: 'q2',
                  text: 'Порекомендуете?',
                  category: 'nps',
                  scaleLabels: { min: 'Нет', max: 'Да' },
                  translations: { en: { text: 'Recommend?', scaleMin: 'No' } },
                }),
                newQuestion({
                  id: 'q3',
                  text: 'Матрица',
                  category: 'matrix',
                  answers: [newAnswer({ id: 'c1', text: 'Да' })],
                  statements: [{ id: 's1', text: 'Строка', translations: { en: { text: 'Row' } } }],
                }),
              ],
            }),
          ],
        }),
      ],
    };
  }

  it('names each missing text with its question number and language, as incomplete', () => {
    expect(rules(survey())).toEqual([
      [
        'translationMissingOther',
        'questionnaires.0.blocks.0.questions.0',
        { number: 1, language: 'en' },
        'incomplete',
      ],
      [
        'translationMissingAnswer',
        'questionnaires.0.blocks.0.questions.0.answers.0',
        { number: 1, n: 1, language: 'en' },
        'incomplete',
      ],
      [
        'translationMissingScale',
        'questionnaires.0.blocks.0.questions.1',
        { number: 2, language: 'en' },
        'incomplete',
      ],
      [
        'translationMissing',
        'questionnaires.0.blocks.0.questions.2',
        { number: 3, language: 'en' },
        'incomplete',
      ],
      [
        'translationMissingAnswer',
        'questionnaires.0.blocks.0.questions.2.answers.0',
        { number: 3, n: 1, language: 'en' },
        'incomplete',
      ],
    ]);
  });

  it('finds nothing once every text is translated, and nothing in single-language or old content', () => {
    const c = survey();
    const [q1, q2, q3] = c.questionnaires[0].blocks[0].questions;
    q1.translations = { en: { text: 'Gender', other: 'Other' } };
    q1.answers[0].translations = { en: { text: 'F' } };
    q2.translations = { en: { text: 'Recommend?', scaleMin: 'No', scaleMax: 'Yes' } };
    q3.translations = { en: { text: 'Matrix' } };
    q3.answers[0].translations = { en: { text: 'Yes' } };
    expect(rules(c)).toEqual([]);
    const old = survey();
    delete old.languages;
    for (const q of old.questionnaires[0].blocks[0].questions) delete q.translations;
    expect(rules(old)).toEqual([]);
    expect(rules({ ...survey(), languages: ['ru'] })).toEqual([]);
  });
});
