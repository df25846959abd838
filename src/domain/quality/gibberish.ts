import type { GibberishRule } from '../responses';

// Is a written answer (an open question's text, an "Other" text) junk rather than words? A pure
// function for Cyrillic and Latin script, tuned on real-looking answers
// (tests/unit/quality-gibberish.test.ts): it flags keyboard mashing, repeated characters, long runs
// without a vowel and lone symbols, and leaves short honest answers alone ("нет", "хз", "PvP",
// "всё ок", "5"), slang and typos. When in doubt it says nothing: a wrong flag costs a researcher a
// good respondent.

/** Keyboard rows, Latin (QWERTY) and Cyrillic (ЙЦУКЕН), lower case. */
const ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm', 'йцукенгшщзхъ', 'фывапролджэ', 'ячсмитьбю'];
const LINES = ROWS.flatMap((row) => [row, [...row].reverse().join('')]);
const VOWELS = new Set('aeiouyаеёиоуыэюя');

/**
 * Keys side by side on one row: five anywhere ("ывапр", "sdfgh"), or a word that starts with a row's
 * first four ("asdf", "фыва", "qwer", "йцук", and backwards "fdsa"). Four keys inside a row make real
 * words ("пролог", "кенгуру"); five never do.
 */
function keyboardRun(word: string): boolean {
  for (const line of LINES)
    for (let i = 0; i + 5 <= word.length; i++) if (line.includes(word.slice(i, i + 5))) return true;
  for (const row of ROWS) {
    const start = row.slice(0, 4);
    if (word.startsWith(start) || word.startsWith([...start].reverse().join(''))) return true;
  }
  return false;
}

/**
 * Letter pairs no Russian word has: a soft or hard sign or «ы» right after a vowel, a word that
 * starts with one of them, or two of them together. Cyrillic mashing with vowels in it
 * ("аоывлаоыв") trips it; words do not.
 */
const IMPOSSIBLE_RU = /[аеёиоуэюя][ыьъ]|^[ыьъ]|[ыьъ]{2}/;

/** The same letter four times or more in a row, one letter three times or more, or a short chunk repeated. */
function repeated(word: string): boolean {
  if (/(\p{L})\1{3,}/u.test(word)) return true;
  if (word.length >= 3 && new Set(word).size === 1) return true;
  // "asdasdasd", "фвфвфв", "хахахаха": a chunk of 2–3 letters three times or more, little else.
  return /^(\p{L}{2,3})\1{2,}\p{L}{0,2}$/u.test(word);
}

/** Five letters or more without a vowel (not an abbreviation in capitals), or six consonants in a row. */
function noVowels(original: string, word: string): boolean {
  const letters = [...word];
  const caps = original === original.toUpperCase();
  if (letters.length >= 5 && !caps && letters.every((c) => !VOWELS.has(c))) return true;
  let run = 0;
  for (const c of letters) {
    run = VOWELS.has(c) ? 0 : run + 1;
    if (run >= 6 && !caps) return true;
  }
  return false;
}

/** The first rule a text breaks, or null when it reads as words (or cannot be judged). */
export function gibberishRule(text: string): GibberishRule | null {
  const t = text.trim();
  if (t === '') return null;
  // Only punctuation or symbols ("." "-" "???" "+++"): no letter and no digit at all.
  if (!/[\p{L}\p{N}]/u.test(t)) return 'symbol';
  for (const original of t.split(/[^\p{L}]+/u)) {
    // Latin and Cyrillic words are judged; other scripts are not.
    if (!/^[a-zA-Zа-яёА-ЯЁ]+$/.test(original)) continue;
    const word = original.toLowerCase();
    if (repeated(word)) return 'repeated';
    if (keyboardRun(word)) return 'mashing';
    if (IMPOSSIBLE_RU.test(word)) return 'mashing';
    if (noVowels(original, word)) return 'noVowels';
  }
  return null;
}
