import { applyPatches } from 'immer';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { performCommand } from '../../src/domain/content/commands';
import { newAnswer, newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';
import { ContentSchema, type ProjectContent } from '../../src/domain/content/model';
import { textUnits, translatedCount } from '../../src/domain/translations/units';
import { importQuestions, planFill } from '../../src/domain/content/import';

// The editor's language commands (issue 32, part 2): each is one step with its undo, and the content
// they leave always passes the schema the server saves with.

const base = (): ProjectContent => ({
  portraits: [],
  questionnaires: [
    newQuestionnaire({
      blocks: [
        newBlock({
          questions: [
            newQuestion({
              id: 'q1',
              text: 'Вы играете?',
              category: 'oneAnswer',
              other: 'Другое',
              answers: [newAnswer({ id: 'a1', text: 'Да' }), newAnswer({ id: 'a2', text: '' })],
            }),
          ],
        }),
      ],
    }),
  ],
});

const valid = (c: ProjectContent) => expect(v.safeParse(ContentSchema, c).issues).toBeUndefined();

describe('language commands', () => {
  it('adds a supported language after the source (content written before reads as Russian)', () => {
    const done = performCommand(base(), { type: 'language.add', code: 'en' })!;
    expect(done.content.languages).toEqual(['ru', 'en']);
    expect(done.code).toBe('009');
    valid(done.content);
    expect(performCommand(done.content, { type: 'language.add', code: 'en' })).toBeNull();
    expect(performCommand(done.content, { type: 'language.add', code: 'xx' })).toBeNull();
  });

  it('translates a text, clears it with an empty one, and skips a text the source does not have', () => {
    const c = performCommand(base(), { type: 'language.add', code: 'en' })!.content;
    const set = performCommand(c, {
      type: 'texts.set',
      language: 'en',
      texts: [
        { key: 'q.q1.text', text: 'Do you play?' },
        { key: 'a.q1.a1.text', text: 'Yes' },
        // The second answer has no text in the source: nothing to translate.
        { key: 'a.q1.a2.text', text: 'ghost' },
        { key: 'q.q1.scaleMin', text: 'ghost' },
      ],
    })!;
    const q = set.content.questionnaires[0].blocks[0].questions[0];
    expect(q.translations).toEqual({ en: { text: 'Do you play?' } });
    expect(q.answers[0].translations).toEqual({ en: { text: 'Yes' } });
    expect(q.answers[1].translations).toBeUndefined();
    expect(q.text).toBe('Вы играете?');
    valid(set.content);
    const units = textUnits(set.content);
    expect(units.map((u) => u.key)).toEqual(['q.q1.text', 'q.q1.other', 'a.q1.a1.text']);
    expect(translatedCount(set.content, units, 'en')).toBe(2);
    const cleared = performCommand(set.content, {
      type: 'texts.set',
      language: 'en',
      texts: [{ key: 'q.q1.text', text: '' }],
    })!;
    expect(cleared.content.questionnaires[0].blocks[0].questions[0].translations).toBeUndefined();
    expect(applyPatches(set.content, set.inverse)).toEqual(c);
  });

  it('sets the source texts through the same command in the source language', () => {
    const done = performCommand(base(), {
      type: 'texts.set',
      language: 'ru',
      texts: [
        { key: 'q.q1.text', text: 'Новый текст' },
        { key: 'q.q1.other', text: 'Иное' },
      ],
    })!;
    const q = done.content.questionnaires[0].blocks[0].questions[0];
    expect([q.text, q.other]).toEqual(['Новый текст', 'Иное']);
  });

  it('removes a language with every translation into it in one step, never the source', () => {
    const start = base();
    const c0 = performCommand(start, { type: 'language.add', code: 'en' })!.content;
    const c = performCommand(c0, {
      type: 'texts.set',
      language: 'en',
      texts: [
        { key: 'q.q1.text', text: 'Do you play?' },
        { key: 'a.q1.a1.text', text: 'Yes' },
      ],
    })!.content;
    expect(performCommand(c, { type: 'language.remove', code: 'ru' })).toBeNull();
    const removed = performCommand(c, { type: 'language.remove', code: 'en' })!;
    // Back to Russian alone: the list is left out, as in content written before languages.
    expect(removed.content).toEqual(start);
    valid(removed.content);
    expect(applyPatches(removed.content, removed.inverse)).toEqual(c);
  });

  it('a translation into a language not listed is refused', () => {
    const c = performCommand(base(), { type: 'language.add', code: 'en' })!.content;
    expect(
      performCommand(c, {
        type: 'texts.set',
        language: 'de',
        texts: [{ key: 'q.q1.text', text: 'Spielen Sie?' }],
      }),
    ).toBeNull();
  });
});

describe('import from list into a language', () => {
  it('fills the texts by position, says where the list and the questionnaire differ, one step', () => {
    const c = performCommand(base(), { type: 'language.add', code: 'en' })!.content;
    const list = importQuestions('1. Do you play?\nYes\nNo\nMaybe\n\n2. Anything else?');
    if (!list.ok) throw new Error(list.reason);
    const qnId = c.questionnaires[0].id;
    const plan = planFill(c, qnId, 'en', list.blocks)!;
    expect(plan.rows.map((r) => [r.key, r.now, r.next])).toEqual([
      ['q.q1.text', '', 'Do you play?'],
      ['a.q1.a1.text', '', 'Yes'],
      ['a.q1.a2.text', '', 'No'],
    ]);
    expect(plan.listQuestions).toBe(2);
    expect(plan.questions).toBe(1);
    expect(plan.mismatches).toEqual([
      { place: { block: 1, question: 1 }, what: 'answers', list: 3, questionnaire: 2 },
    ]);
    const done = performCommand(c, { type: 'texts.set', language: 'en', texts: plan.texts })!;
    const q = done.content.questionnaires[0].blocks[0].questions[0];
    expect([q.text, q.translations?.en?.text, q.answers[0].translations?.en?.text]).toEqual([
      'Вы играете?',
      'Do you play?',
      'Yes',
    ]);
    // The second answer has no source text: nothing to translate there, so its English is left out.
    expect(q.answers[1].translations).toBeUndefined();
    // The source language the same way: the list's texts become the questionnaire's own.
    const ru = planFill(c, qnId, 'ru', list.blocks)!;
    expect(ru.texts[0]).toEqual({ key: 'q.q1.text', text: 'Do you play?' });
  });
});
