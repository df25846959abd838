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
