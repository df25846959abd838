import { expect, it } from 'vitest';
import { loadAllLocales } from '../../src/i18n/i18n-util.sync';
import { i18nObject } from '../../src/i18n/i18n-util';

// Russian counts take the noun's form by the number (4 строки, 5 строк, 21 строка): the quality
// flags' reasons said "Все 4 строк матрицы".
loadAllLocales();
const ru = i18nObject('ru');

it('the straight-liner reasons agree with their numbers in Russian', () => {
  const matrix = (statements: number) => ru.quality.reasons.matrix({ statements, number: 11 });
  expect(matrix(4)).toBe('Все 4 строки матрицы (вопрос 11) отмечены в одном столбце');
  expect(matrix(5)).toBe('Все 5 строк матрицы (вопрос 11) отмечены в одном столбце');
  expect(matrix(21)).toBe('Все 21 строка матрицы (вопрос 11) отмечены в одном столбце');
  const scale = (count: number) => ru.quality.reasons.scale({ count, from: 3, to: 9 });
  expect(scale(5)).toBe('5 шкальных вопросов подряд (вопросы 3–9) отмечены в одном положении');
  expect(scale(22)).toBe('22 шкальных вопроса подряд (вопросы 3–9) отмечены в одном положении');
});

it('the editor’s price total groups its count and agrees with it', () => {
  const en = i18nObject('en');
  const total = (count: number) =>
    ru.panels.price.total({ shown: count.toLocaleString('ru'), count, amount: '1 ₽' }).replace(/\s/g, ' ');
  expect(total(12000)).toBe('Всего за 12 000 респондентов: 1 ₽');
  expect(total(21)).toBe('Всего за 21 респондента: 1 ₽');
  expect(en.panels.price.total({ shown: '12,000', count: 12000, amount: '$1' })).toBe(
    'Total for 12,000 respondents: $1',
  );
  expect(en.panels.price.total({ shown: '1', count: 1, amount: '$1' })).toBe('Total for 1 respondent: $1');
});
