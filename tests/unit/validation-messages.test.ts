import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { loadAllLocales } from '../../src/i18n/i18n-util.sync';
import { i18nObject } from '../../src/i18n/i18n-util';
import { formErrors } from '../../src/views/ui/validation';
import { TariffBody, AudienceSettings } from '../../src/domain/pricing';
import { CreateProjectBody, PRIORITY_MAX } from '../../src/domain/projects';
import { parse } from '../../server/http/validate';

// A number past its bound names the bound in every form and in the server's 400 (issue 17: "Invalid
// value" told nobody what to type); the spec's own texts stay where they apply.

loadAllLocales();
const en = i18nObject('en');
const ru = i18nObject('ru');

describe('validation messages of bounded numbers', () => {
  it('names the maximum in forms, in both languages', () => {
    const tariff = formErrors(en, TariffBody, { name: 'Gold', discount: 101 });
    expect(tariff).toEqual({ ok: false, errors: { discount: 'At most 100' } });
    const project = formErrors(en, CreateProjectBody, {
      name: 'P',
      template: 'default',
      priority: PRIORITY_MAX + 1,
    });
    expect(project.ok || project.errors.priority).toBe(`At most ${PRIORITY_MAX}`);
    const ruTariff = formErrors(ru, TariffBody, { name: 'Gold', discount: 101 });
    expect(ruTariff.ok || ruTariff.errors.discount).toBe('Не больше 100');
  });

  it('names a minimum above 1, and keeps the spec text for 0 and 1', () => {
    const age = v.object({
      age: v.pipe(v.number(), v.minValue(14, 'positiveInteger'), v.maxValue(99, 'invalid')),
    });
    expect(formErrors(en, age, { age: 7 })).toEqual({ ok: false, errors: { age: 'At least 14' } });
    expect(formErrors(en, age, { age: 120 })).toEqual({ ok: false, errors: { age: 'At most 99' } });
    const settings = Object.fromEntries(Object.keys(AudienceSettings.entries).map((k) => [k, 10]));
    const step = formErrors(en, AudienceSettings, { ...settings, questionStep: 0 });
    expect(step.ok || step.errors.questionStep).toBe('This field must be a positive number');
    const negative = formErrors(en, TariffBody, { name: 'Gold', discount: -1 });
    expect(negative.ok || negative.errors.discount).toBe('This field must be a positive number');
  });

  it('names the maximum in the server’s 400 too', () => {
    let message = '';
    try {
      parse(TariffBody, { name: 'Gold', discount: 1000 });
    } catch (err) {
      message = JSON.stringify(err);
    }
    expect(message).toContain('tooBig');
    expect(v.safeParse(TariffBody, { name: 'Gold', discount: 100 }).success).toBe(true);
  });
});

describe('issues of schemas that gave no message key', () => {
  // valibot's own English ("Invalid key: Expected \"cols\" but received undefined") reached callers
  // of every route whose schema set no key; each kind of issue now has its key, in both languages.
  const bare = v.strictObject({
    cols: v.string(),
    kind: v.picklist(['city', 'region']),
    search: v.pipe(v.string(), v.maxLength(100)),
    portraits: v.pipe(v.array(v.string()), v.maxLength(2, 'tooLong')),
    page: v.pipe(v.number(), v.minValue(1)),
    age: v.pipe(v.number(), v.minValue(14)),
  });
  const valid = { cols: 'q1', kind: 'city', search: 'a', portraits: [], page: 1, age: 20 };
  const message = (input: unknown, locale: 'en' | 'ru' = 'en') => {
    try {
      parse(bare, input);
    } catch (err) {
      const e = err as { status: number; text: (t: unknown, l: string) => string };
      return e.text(locale === 'en' ? en : ru, locale);
    }
    return 'no error';
  };

  it.each([
    [{ ...valid, cols: undefined }, 'cols: This field is required'],
    [{ ...valid, extra: 1 }, 'extra: Unknown field'],
    [{ ...valid, cols: 5 }, 'cols: Wrong type of value'],
    [{ ...valid, kind: 'zzz' }, 'kind: Invalid value'],
    [{ ...valid, search: 'x'.repeat(101) }, 'search: At most 100 characters'],
    [{ ...valid, portraits: ['a', 'b', 'c'] }, 'portraits: At most 2 items'],
    [{ ...valid, page: 0 }, 'page: This field must be a positive number'],
    [{ ...valid, age: 7 }, 'age: At least 14'],
  ])('%j → %s', (input, expected) => {
    expect(message(input)).toBe(expected);
  });

  it('says it in Russian too', () => {
    expect(message({ ...valid, cols: undefined }, 'ru')).toBe('cols: Это поле обязательно');
    expect(message({ ...valid, portraits: ['a', 'b', 'c'] }, 'ru')).toBe('portraits: Не больше 2 элементов');
  });
});
