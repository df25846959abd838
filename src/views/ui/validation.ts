import * as v from 'valibot';
import type { TranslationFunctions } from '../../i18n/i18n-types';
import { issueKey, messageParams } from '../../domain/validation';

type Issues = Record<string, string>;

/** Translates a valibot message key of the `validation` group; unknown keys pass through. */
export function translateIssue(LL: TranslationFunctions, issue: v.BaseIssue<unknown>): string {
  const group = LL.validation as unknown as Record<string, (p: Record<string, number>) => string>;
  const key = issueKey(issue);
  const fn = group[key];
  const text = typeof fn === 'function' ? fn(messageParams(issue)) : '';
  return text || key;
}

/** Validates a form's values with a shared schema; returns the first message per field. */
export function formErrors<S extends v.GenericSchema>(
  LL: TranslationFunctions,
  schema: S,
  values: unknown,
): { ok: true; output: v.InferOutput<S> } | { ok: false; errors: Issues } {
  const result = v.safeParse(schema, values);
  if (result.success) return { ok: true, output: result.output };
  const errors: Issues = {};
  for (const issue of result.issues) {
    const key = v.getDotPath(issue) ?? '';
    if (!(key in errors)) errors[key] = translateIssue(LL, issue);
  }
  return { ok: false, errors };
}
