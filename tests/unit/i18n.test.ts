import { describe, expect, it } from 'vitest';
import ru from '../../src/i18n/ru';
import en from '../../src/i18n/en';

// Every key of the Russian base must exist in English and the other way round, with the same
// parameters; and the spec's English messages (sections 5 and 8) must be there word for word.

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

/** Parameter names of a typesafe-i18n text: {name}, {name:type}, {name|formatter}; plural parts {{…}} are not parameters. */
function params(text: string): string[] {
  const withoutPlurals = text.replace(/\{\{[^}]*\}\}/g, '');
  return [...withoutPlurals.matchAll(/\{\s*(\w+)\s*(?:[:|][^}]*)?\}/g)].map((m) => m[1]).sort();
}

function compareLocales(base: Tree, other: Tree) {
  const a = flatten(base);
  const b = flatten(other);
  return {
    missing: [...a.keys()].filter((k) => !b.has(k)),
    extra: [...b.keys()].filter((k) => !a.has(k)),
    paramMismatch: [...a.keys()].filter(
      (k) => b.has(k) && params(a.get(k)!).join() !== params(b.get(k)!).join(),
    ),
    empty: [...b.entries()].filter(([k, v]) => v.trim() === '' && a.get(k)?.trim() !== '').map(([k]) => k),
  };
}

const SPEC_ENGLISH = [
  'This field is required',
  'Please enter a valid email',
  'Enter a valid email',
  'Must contain a number',
  'Must contain a lowercase letter',
  'Minimum 3 symbols.',
  'This field must be a number',
  'This field must be a positive number',
  'Enter a valid url',
  'Value must not be empty string',
  'Value must be a valid JSON string',
  'Passwords must match',
  'Required fields',
  'An account with this email address already exists',
  'Invalid code entered, please repeat',
  'An expired code has been entered, please request the code again',
  'The user cannot be confirmed. Current status is CONFIRMED',
  'Invalid email or password.',
  'Confirmation failed with error User email and account email are not equals.',
  'Wrong credentials',
  'Invalid confirmation link',
  'Something went wrong...',
  'Server response status: {status}',
];

describe('locales', () => {
  it('has the same keys and parameters in ru and en', () => {
    expect(compareLocales(ru as unknown as Tree, en as unknown as Tree)).toEqual({
      missing: [],
      extra: [],
      paramMismatch: [],
      empty: [],
    });
  });

  it('notices a key that exists in one locale and not in the other, and a parameter that differs', () => {
    const base: Tree = { a: { b: 'x {n:number}', c: 'y' } };
    expect(compareLocales(base, { a: { b: 'x {n}' } }).missing).toEqual(['a.c']);
    expect(compareLocales(base, { a: { b: 'x {n}', c: 'y', d: 'z' } }).extra).toEqual(['a.d']);
    expect(compareLocales(base, { a: { b: 'x {m}', c: 'y' } }).paramMismatch).toEqual(['a.b']);
    expect(compareLocales(base, { a: { b: 'x {n}', c: '' } }).empty).toEqual(['a.c']);
  });

  it('reads parameters with types and formatters but not plural parts', () => {
    expect(params('{count:number} {{question|questions}} by {name|upper}')).toEqual(['count', 'name']);
  });

  it("holds the spec's English messages word for word", () => {
    const values = new Set(flatten(en as unknown as Tree).values());
    for (const text of SPEC_ENGLISH) expect(values.has(text), text).toBe(true);
  });

  it('names the shell in both languages (sidebar labels from the spec table)', () => {
    expect(en.shell.menu).toMatchObject({
      accessControl: 'Access control',
      demoResearchers: 'Demo researchers',
      researchers: 'Researchers',
      issuers: 'Issuers',
      moderators: 'Moderators',
      games: 'Games',
      pricing: 'Pricing',
      calculator: 'Calculator',
      tariffs: 'Tariffs',
      analytics: 'Analytics',
      questionnaires: 'Questionnaires',
      reports: 'Reports',
      logs: 'Logs',
      statistics: 'Statistics',
    });
    expect(en.shell.guide).toMatchObject({ next: 'Next', doByMyself: 'Do by myself', end: 'End' });
    expect(en.common).toMatchObject({
      cancel: 'Cancel',
      agree: 'Agree',
      logout: 'Logout',
      profile: 'Profile',
    });
  });
});
