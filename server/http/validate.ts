import * as v from 'valibot';
import { INT32_MAX, issueKey, messageParams } from '../../src/domain/validation';
import { badRequest } from './errors';
import { translateKey } from './i18n';
import { inputProblem } from './input-guard';

/**
 * Parses a body or query with a shared valibot schema. The first problem becomes a 400 that names
 * the field and the reason in the caller's language; every problem is listed in `details`.
 */
export function parse<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const guard = inputProblem(schema, input);
  if (guard) {
    const params: Record<string, number> = guard.key === 'tooBig' ? { max: INT32_MAX } : {};
    throw fieldError([{ ...guard, params }]);
  }
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  throw fieldError(
    result.issues.map((issue) => ({
      field: v.getDotPath(issue) || 'body',
      key: issueKey(issue),
      params: messageParams(issue),
    })),
  );
}

function fieldError(problems: { field: string; key: string; params: Record<string, number> }[]) {
  const first = problems[0];
  return badRequest(
    (t, locale) => {
      const reason = translateKey(locale, `validation.${first.key}`, first.params);
      // A message that is not one of our keys (valibot's own English text) is shown as it is.
      return t.errors.fieldError({
        field: first.field,
        reason: reason.startsWith('validation.') ? first.key : reason,
      });
    },
    { field: first.field, details: problems.map((p) => ({ field: p.field, key: p.key })) },
  );
}
