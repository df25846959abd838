import fc from 'fast-check';
import { applyPatches } from 'immer';
import { describe, expect, it } from 'vitest';
import { performCommand } from '../../src/domain/content/commands';
import {
  newAnswer,
  newBlock,
  newQuestion,
  newQuestionnaire,
  newStatement,
} from '../../src/domain/content/factory';
import { ContentSchema, type ProjectContent } from '../../src/domain/content/model';
import * as v from 'valibot';
import { CONTROL_CHARS } from '../../src/domain/validation';
import { planImport, type FileUnit } from '../../src/domain/translations/plan';
import { textUnits } from '../../src/domain/translations/units';
import { readXliffFile, xliffOf } from '../../src/domain/translations/xliffFile';
import { readXliff } from '../../src/domain/translations/xliff';
import { readXlsxFile, xlsxOf } from '../../src/domain/translations/xlsx';

// Issue 32, "Round trip: export, translate, import gives the same content": a questionnaire whose
// English texts are all there is exported without them, a translator fills every target of the file
// with those texts, and importing the file gives back exactly the questionnaire with its English.

/** Texts a questionnaire holds (the schema refuses control characters but tab, LF and CR). */
const text = fc
  .oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
    fc.constantFrom(
      'Сколько часов в день вы играете?',
      '"Кавычки" & \'апострофы\' <b>не тег</b> ]]> &amp;',
      'Эмодзи 😀 👨‍👩‍👧 🇷🇺',
      '  пробелы по краям  ',
      'Строка один\nстрока два\r\nстрока три',
      'Tab\tinside',
    ),
  )
  .filter((s) => s.trim() !== '' && !CONTROL_CHARS.test(s));

/** A questionnaire in Russian with English for every text (the one the translator would give back). */
const translatedContent: fc.Arbitrary<ProjectContent> = fc
  .array(
    fc.record({
      text: fc.tuple(text, text),
      other: fc.option(fc.tuple(text, text), { nil: null }),
      scale: fc.option(fc.tuple(text, text, text, text), { nil: null }),
      answers: fc.array(fc.tuple(text, text), { maxLength: 3 }),
      statements: fc.array(fc.tuple(text, text), { maxLength: 2 }),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .map((qs) => ({
    languages: ['ru', 'en'],
    portraits: [],
    questionnaires: [
      newQuestionnaire({
        blocks: [
          newBlock({
            questions: qs.map((q) =>
              // Every kind of text on one question (the factory would keep only its category's).
              Object.assign(newQuestion({ category: q.statements.length ? 'matrix' : 'oneAnswer' }), {
                text: q.text[0],
                other: q.other?.[0] ?? null,
                scaleLabels: q.scale ? { min: q.scale[0], max: q.scale[1] } : null,
                translations: {
                  en: {
                    text: q.text[1],
                    ...(q.other ? { other: q.other[1] } : {}),
                    ...(q.scale ? { scaleMin: q.scale[2], scaleMax: q.scale[3] } : {}),
                  },
                },
                answers: q.answers.map(([ru, en]) =>
                  newAnswer({ text: ru, translations: { en: { text: en } } }),
                ),
                statements: q.statements.map(([ru, en]) =>
                  newStatement({ text: ru, translations: { en: { text: en } } }),
                ),
              }),
            ),
          }),
        ],
      }),
    ],
  }));

/** The same questionnaire before anyone translated it. */
function untranslated(content: ProjectContent): ProjectContent {
  const c = structuredClone(content);
  for (const q of c.questionnaires[0].blocks[0].questions) {
    delete q.translations;
    for (const a of q.answers) delete a.translations;
    for (const s of q.statements) delete s.translations;
  }
  return c;
}

/** What the translator types into each unit: the English of the translated questionnaire. */
function translator(translated: ProjectContent) {
  const english = new Map(
    textUnits(translated).map((u) => [u.key, u.item.translations?.en?.[u.field] ?? null]),
  );
  return (key: string) => english.get(key) ?? null;
}

function importUnits(content: ProjectContent, units: FileUnit[]): ProjectContent {
  const plan = planImport(content, 'en', units);
  expect(plan.unknown).toEqual([]);
  const done = performCommand(content, {
    type: 'texts.set',
    language: 'en',
    texts: plan.texts,
    label: 'file',
  });
  return done ? done.content : content;
}

describe('translators’ files round trip (property)', () => {
  it('XLIFF 2.0: export, translate every target, import gives the translated questionnaire, one step', () => {
    fc.assert(
      fc.property(translatedContent, (translated) => {
        expect(v.safeParse(ContentSchema, translated).success).toBe(true);
        const before = untranslated(translated);
        const exported = xliffOf(before, 'en', { fileId: 'p1' });
        // The translator's tool: every <source> gets its <target> (the file is edited as XML text).
        const type = translator(translated);
        const read = readXliff(exported);
        if (!read.ok) throw new Error(read.reason);
        const translatedFile = exported.replace(
          /<unit id="([^"]+)"([^>]*)>([\s\S]*?)<segment state="initial">\n(\s*)<source>([\s\S]*?)<\/source>/g,
          (_m, id: string, attrs: string, notes: string, indent: string, source: string) =>
            `<unit id="${id}"${attrs}>${notes}<segment state="translated">\n${indent}<source>${source}</source>\n${indent}<target>${escape(type(id)!)}</target>`,
        );
        const back = readXliffFile(translatedFile, before, 'en');
        if (!back.ok) throw new Error(back.reason);
        expect(importUnits(before, back.units)).toEqual(translated);
      }),
      { numRuns: 60 },
    );
  });

  it('XLSX: export, fill the target column, import gives the translated questionnaire', async () => {
    const ExcelJS = (await import('exceljs')).default;
    await fc.assert(
      fc.asyncProperty(translatedContent, async (translated) => {
        const before = untranslated(translated);
        const type = translator(translated);
        const wb = new ExcelJS.Workbook();
        await wb.xlsx.load(await xlsxOf(before, 'en'));
        const ws = wb.worksheets[0];
        expect(ws.getRow(1).values).toEqual([undefined, 'key', 'ru', 'en', 'context']);
        ws.eachRow((row, n) => {
          // As a spreadsheet writes it: a carriage return as OOXML's _x000D_ (a raw one reads back as LF).
          if (n > 1) row.getCell(3).value = type(String(row.getCell(1).value))!.replace(/\r/g, '_x000D_');
        });
        const back = await readXlsxFile((await wb.xlsx.writeBuffer()) as ArrayBuffer, before, 'en');
        if (!back.ok) throw new Error(back.reason);
        expect(importUnits(before, back.units)).toEqual(translated);
      }),
      { numRuns: 10 },
    );
  }, 60_000);
});

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');

describe('an import', () => {
  const content = (): ProjectContent => ({
    languages: ['ru', 'en'],
    portraits: [],
    questionnaires: [
      newQuestionnaire({
        blocks: [
          newBlock({
            questions: [
              newQuestion({
                id: 'q1',
                text: 'Вопрос',
                translations: { en: { text: 'Question' } },
                answers: [newAnswer({ id: 'a1', text: 'Да' }), newAnswer({ id: 'a2', text: 'Нет' })],
              }),
            ],
          }),
        ],
      }),
    ],
  });

  it('changes only target texts, reports units it does not know, and is one undoable step', () => {
    const c = content();
    const plan = planImport(c, 'en', [
      { key: 'q.q1.text', source: 'Вопрос', target: 'Question' },
      { key: 'a.q1.a1.text', source: 'Да', target: 'Yes' },
      { key: 'a.q1.a2.text', source: 'Было «Нет»', target: 'No' },
      { key: 'a.q1.gone.text', source: 'x', target: 'y' },
      { key: 'q.q9.other', source: 'x', target: null },
    ]);
    expect(plan.texts).toEqual([
      { key: 'a.q1.a1.text', text: 'Yes' },
      { key: 'a.q1.a2.text', text: 'No' },
    ]);
    expect(plan.unknown).toEqual(['a.q1.gone.text', 'q.q9.other']);
    expect(plan.unchanged).toBe(1);
    expect(plan.sourceChanged.map((u) => u.key)).toEqual(['a.q1.a2.text']);
    const done = performCommand(c, {
      type: 'texts.set',
      language: 'en',
      texts: plan.texts,
      label: 'en.xlf',
    })!;
    const q = done.content.questionnaires[0].blocks[0].questions[0];
    expect(q.text).toBe('Вопрос');
    expect(q.answers.map((a) => [a.text, a.translations?.en?.text])).toEqual([
      ['Да', 'Yes'],
      ['Нет', 'No'],
    ]);
    expect(done.code).toBe('008');
    // One step: its inverse patches give back the questionnaire before the import.
    expect(applyPatches(done.content, done.inverse)).toEqual(c);
  });

  it('refuses a file into another language or from another source language', () => {
    const c = content();
    const de = xliffOf({ ...c, languages: ['ru', 'de'] }, 'de', { fileId: 'p' });
    expect(readXliffFile(de, c, 'en')).toEqual({ ok: false, reason: 'otherLanguage', found: 'de' });
    const fromEn = xliffOf({ ...c, languages: ['en', 'ru'], questionnaires: [] }, 'ru', { fileId: 'p' });
    expect(readXliffFile(fromEn, c, 'ru')).toMatchObject({ ok: false, reason: 'otherSource', found: 'en' });
  });
});
