import { describe, expect, it } from 'vitest';
import { gibberishRule } from '../../src/domain/quality';
import type { GibberishRule } from '../../src/domain/responses';

// Real-looking answers to a game survey's open questions ("What would you improve?", "Why did you
// stop playing?") and "Other" fields, in Russian and English: the honest ones must pass, however
// short, slangy or misspelt; the junk must be caught with the rule that says why.

const honest: string[] = [
  'Больше уровней',
  'Меньше рекламы, особенно после каждого боя',
  'нет',
  'хз',
  'Всё ок',
  'Ничего не менять!',
  'Добавить режим PvP и кланы',
  'Пролог слишком длинный',
  'Кенгуру в зоопарке — смешной персонаж',
  'Контрпредложение: сделать скины дешевле',
  'донат дорогой(((',
  'Играю с друзьями по вечерам',
  'Взгляд со стороны: графика норм',
  'Объём загрузки большой',
  'подъезд и вьюга в заставке',
  'ВКонтакте не логинится',
  'РПГ, стратегии',
  'Гонки',
  '5',
  '10/10',
  'More levels please',
  'Less ads',
  'no',
  'idk',
  'ok',
  'The rhythm section is great',
  'Strengths: story; weaknesses: grinding',
  'Add a CRPG mode',
  'HTTPS login fails sometimes',
  'lol',
  'PvP is unbalanced :(',
  'I stopped because of the paywall',
  'Too many in-app purchases',
  'Nope, everything is fine',
  'Тетрис',
];

const junk: [string, GibberishRule][] = [
  ['.', 'symbol'],
  ['-', 'symbol'],
  ['???', 'symbol'],
  ['+++', 'symbol'],
  ['ааааааа', 'repeated'],
  ['ыыыыы', 'repeated'],
  ['zzzzzzzz', 'repeated'],
  ['ddd', 'repeated'],
  ['asdasdasd', 'repeated'],
  ['фвфвфвфв', 'repeated'],
  ['фывапролдж', 'mashing'],
  ['фыва', 'mashing'],
  ['йцукен', 'mashing'],
  ['ячсмить', 'mashing'],
  ['asdfghjkl', 'mashing'],
  ['qwerty', 'mashing'],
  ['asdf', 'mashing'],
  ['zxcvbn', 'mashing'],
  ['аоывлаоыв', 'mashing'],
  ['ghbdtn', 'noVowels'],
  ['jfkdls', 'noVowels'],
  ['sdjfhsk', 'noVowels'],
  ['прлдж вапр', 'noVowels'],
  ['ывлджф', 'mashing'],
  ['Хорошо ыыыыыыыы', 'repeated'],
  ['nice game bcdfghk', 'noVowels'],
];

describe('the gibberish detector', () => {
  it('has a table of at least 40 answers in both scripts', () => {
    expect(honest.length + junk.length).toBeGreaterThanOrEqual(40);
    const cyrillic = /[а-яё]/i;
    expect(honest.some((t) => cyrillic.test(t)) && honest.some((t) => !cyrillic.test(t))).toBe(true);
    expect(junk.some(([t]) => cyrillic.test(t)) && junk.some(([t]) => /[a-z]/i.test(t))).toBe(true);
  });

  it.each(honest)('leaves an honest answer alone: %s', (text) => {
    expect(gibberishRule(text)).toBeNull();
  });

  it.each(junk)('flags junk: %s (%s)', (text, rule) => {
    expect(gibberishRule(text)).toBe(rule);
  });

  it('says nothing of an empty answer or another script', () => {
    expect(gibberishRule('   ')).toBeNull();
    expect(gibberishRule('很好玩')).toBeNull();
  });
});
