import * as v from 'valibot';
import type { TranslationFunctions } from '../../i18n/i18n-types';
import { translateIssue } from '../ui/validation';

/**
 * Like ui/validation's formErrors, but an upper bound says its number ("At most 100") where the
 * shared validation texts have only "Invalid value".
 */
export function pricingErrors<S extends v.GenericSchema>(
  LL: TranslationFunctions,
  schema: S,
  values: unknown,
): { ok: true; output: v.InferOutput<S> } | { ok: false; errors: Record<string, string> } {
  const result = v.safeParse(schema, values);
  if (result.success) return { ok: true, output: result.output };
  const errors: Record<string, string> = {};
  for (const issue of result.issues) {
    const key = v.getDotPath(issue) ?? '';
    if (key in errors) continue;
    errors[key] =
      issue.type === 'max_value'
        ? LL.pricing.errors.notMore({ max: Number(issue.requirement) })
        : translateIssue(LL, issue);
  }
  return { ok: false, errors };
}

/** A number field's text as the schemas take it: '' stays empty (required), anything else a number. */
export function numberFrom(text: string): number | '' {
  const t = text.trim();
  return t === '' ? '' : Number(t.replace(',', '.'));
}

const money = new Map<string, Intl.NumberFormat>();
export function formatMoney(locale: string, roubles: number): string {
  let f = money.get(locale);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: 'currency', currency: 'RUB', maximumFractionDigits: 2 });
    money.set(locale, f);
  }
  return f.format(roubles);
}
