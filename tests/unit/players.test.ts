import { describe, expect, it } from 'vitest';
import { newAnswer, newQuestion, newStatement } from '../../src/domain/content/factory';
import {
  ageOf,
  educationOf,
  fieldText,
  genderOf,
  mappedValue,
  mappingProblems,
} from '../../src/domain/players';

// Which answers become values of a player's mapped fields (issue 24): the same function decides what
// the server writes and what the editor warns about.

const isCity = (id: string) => id === 'MOS:Podolsk';
const choice = (texts: string[], extra = {}) =>
  newQuestion({
    id: 'q',
    answers: texts.map((t, i) => newAnswer({ id: `a${i}`, text: t })),
    writeToDb: true,
    ...extra,
  });

describe('values of the mapped fields', () => {
  it('reads gender and education from ids, labels in both languages and usual words', () => {
    expect(['male', 'Мужской', ' МУЖЧИНА ', 'm'].map(genderOf)).toEqual(['male', 'male', 'male', 'male']);
    expect(['Female', 'женский', 'Ж'].map(genderOf)).toEqual(['female', 'female', 'female']);
    expect(['other', '', 'мужской пол'].map(genderOf)).toEqual([null, null, null]);
    expect(['Высшее', 'higher', 'Учёная степень', 'ученая степень', 'Vocational'].map(educationOf)).toEqual([
      'higher',
      'higher',
      'postgraduate',
      'postgraduate',
      'vocational',
    ]);
    expect(educationOf('Другое')).toBeNull();
  });

  it('takes ages 14–99 as whole numbers only', () => {
    expect([14, 99, '25', ' 40 '].map(ageOf)).toEqual([14, 99, 25, 40]);
    expect([13, 100, 25.5, '25 лет', '', -1].map(ageOf)).toEqual([null, null, null, null, null, null]);
  });

  it('maps one picked answer, the typed text, a range value or a city of the lookup', () => {
    const q = choice(['Мужской', 'Женский', 'Не скажу']);
    expect(mappedValue('gender', q, { answers: ['a1'] }, isCity)).toBe('female');
    expect(mappedValue('gender', q, { answers: ['a2'] }, isCity)).toBeNull();
    const few = choice(['Мужской', 'Женский'], { category: 'fewAnswers' });
    expect(mappedValue('gender', few, { answers: ['a0', 'a1'] }, isCity)).toBeNull(); // two answers: no one value
    const open = newQuestion({ id: 'o', category: 'open', writeToDb: true });
    expect(mappedValue('gender', open, { text: ' female ' }, isCity)).toBe('female');
    expect(mappedValue('age', open, { text: '31' }, isCity)).toBe(31);
    const range = newQuestion({ id: 'r', category: 'fromTo', scale: { min: 1, max: 120, step: 1 } });
    expect(mappedValue('age', range, { value: 30 }, isCity)).toBe(30);
    expect(mappedValue('age', range, { value: 110 }, isCity)).toBeNull();
    const city = newQuestion({ id: 'c', category: 'cityAuto' });
    expect(mappedValue('city', city, { text: 'MOS:Podolsk' }, isCity)).toBe('MOS:Podolsk');
    expect(mappedValue('city', city, { text: 'XXX:Nowhere' }, isCity)).toBeNull();
    expect(mappedValue('city', open, { text: 'MOS:Podolsk' }, isCity)).toBeNull(); // only a city question
  });

  it('keeps any answer as text in a free-named field', () => {
    const q = choice(['Red', 'Blue'], { category: 'fewAnswers', other: '' });
    expect(fieldText(q, { answers: ['a0', 'a1'], other: 'Green' })).toBe('Red; Blue; Green');
    const m = newQuestion({
      id: 'm',
      category: 'matrix',
      answers: [newAnswer({ id: 'c1', text: 'Yes' })],
      statements: [newStatement({ id: 's1', text: 'Fun' })],
    });
    expect(fieldText(m, { cells: { s1: 'c1' } })).toBe('Fun: Yes');
    expect(fieldText(newQuestion({ id: 'n', category: 'nps' }), { value: 9 })).toBe('9');
    expect(fieldText(newQuestion({ id: 'o', category: 'open' }), { text: 'x'.repeat(3000) })).toHaveLength(
      2000,
    );
    expect(fieldText(newQuestion({ id: 'o', category: 'open' }), { text: '  ' })).toBeNull();
  });
});

describe('the editor’s warnings', () => {
  it('warns when a question cannot map onto a mapped field, and only then', () => {
    const open = newQuestion({ id: 'o', category: 'open', writeToDb: true, dbFields: ['gender', 'note'] });
    expect(mappingProblems(open)).toEqual([{ field: 'gender', code: 'freeText' }]);
    const genders = choice(['Мужской', 'Женский'], { dbFields: ['gender'] });
    expect(mappingProblems(genders)).toEqual([]);
    const partly = choice(['Мужской', 'Женский', 'Не скажу'], { dbFields: ['gender'] });
    expect(mappingProblems(partly)).toEqual([{ field: 'gender', code: 'answers', answers: ['Не скажу'] }]);
    const colours = choice(['Red', 'Blue'], { dbFields: ['education'] });
    expect(mappingProblems(colours)).toEqual([{ field: 'education', code: 'never' }]);
    const nps = newQuestion({ id: 'n', category: 'nps', writeToDb: true, dbFields: ['age'] });
    expect(mappingProblems(nps)).toEqual([{ field: 'age', code: 'never' }]);
    const wide = newQuestion({
      id: 'r',
      category: 'slider',
      scale: { min: 0, max: 100, step: 1 },
      writeToDb: true,
      dbFields: ['age'],
    });
    expect(mappingProblems(wide)).toEqual([{ field: 'age', code: 'range', min: 14, max: 99 }]);
    const city = newQuestion({ id: 'c', category: 'cityAuto', writeToDb: true, dbFields: ['city'] });
    expect(mappingProblems(city)).toEqual([]);
    expect(mappingProblems({ ...city, category: 'regionAuto' })).toEqual([{ field: 'city', code: 'never' }]);
    // Not written at all: nothing to warn about.
    expect(mappingProblems({ ...open, writeToDb: false })).toEqual([]);
  });
});
