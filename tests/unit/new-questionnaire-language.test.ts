import { describe, expect, it } from 'vitest';
import type { ProjectDocument } from '../../src/api/content';
import { EMPTY_CONTENT, type ProjectContent } from '../../src/domain/content/model';
import { newQuestionnaire } from '../../src/domain/content/factory';
import { sourceLanguage } from '../../src/domain/content/languages';
import { serverContentOf } from '../../src/machines/editor/open';

// A new project's questionnaire is written in the interface's language: a researcher working in
// English got "Russian (source)" with no way to change it once the first question was added, so
// their English texts were labelled Russian and Russian could not be added as a translation.

const doc = (content: ProjectContent, editable = true): ProjectDocument => ({
  pid: 3,
  name: 'P',
  type: 1,
  template: 'directLink',
  status: 1,
  editable,
  permissions: { blockSettings: false, customParams: false },
  content,
  version: 0,
  updatedAt: null,
});

describe('the language a new questionnaire opens in', () => {
  it('is English when the interface is English', () => {
    const c = serverContentOf(doc(EMPTY_CONTENT), 'en');
    expect(c.languages).toEqual(['en']);
    expect(c.questionnaires).toHaveLength(1);
  });

  it('stays the default (no list) in Russian and without an interface', () => {
    expect(serverContentOf(doc(EMPTY_CONTENT), 'ru').languages).toBeUndefined();
    expect(serverContentOf(doc(EMPTY_CONTENT), undefined).languages).toBeUndefined();
  });

  it('leaves written or read-only content alone', () => {
    const written = { ...EMPTY_CONTENT, questionnaires: [newQuestionnaire({ blocks: [] })] };
    expect(serverContentOf(doc(written), 'en')).toBe(written);
    expect(serverContentOf(doc(EMPTY_CONTENT, false), 'en')).toBe(EMPTY_CONTENT);
    const chosen = { ...EMPTY_CONTENT, languages: ['de'] };
    expect(sourceLanguage(serverContentOf(doc(chosen), 'en'))).toBe('de');
  });
});
