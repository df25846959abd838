import * as v from 'valibot';
import { INT32_MAX, issueKey, MAX_JSON_DEPTH, messageParams } from '../../src/domain/validation';
import { badRequest } from './errors';
import { translateKey } from './i18n';
import { inputProblem } from './input-guard';

/**
 * Parses a body or query with a shared valibot schema. The first problem becomes a 400 that names
 * the field and the reason in the caller's language; the first 100 problems are listed in `details`.
 */
export function parse<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const guard = inputProblem(schema, input);
  if (guard) {
    const params: Record<string, number> =
      guard.key === 'tooBig' ? { max: INT32_MAX } : guard.key === 'tooDeep' ? { max: MAX_JSON_DEPTH } : {};
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

/** Problems listed in `details`: a 100 000-element array of wrong items is one mistake, not 100 000 rows. */
const MAX_DETAILS = 100;

/**
 * The field as a person reads it in the message: list positions in brackets
 * (`content.questionnaires[0].blocks[0].questions[0].colour`). `field` itself stays dotted, as the
 * content rules' problem paths are.
 */
export const readablePath = (field: string) => field.replace(/\.(\d+)(?=\.|$)/g, '[$1]');

export function fieldError(
  problems: { field: string; key: string; params: Record<string, number> }[],
  extra: { code?: string } = {},
) {
  const first = problems[0];
  return badRequest(
    (t, locale) => {
      const reason = translateKey(locale, `validation.${first.key}`, first.params);
      // A message that is not one of our keys (valibot's own English text) is shown as it is.
      return t.errors.fieldError({
        field: readablePath(first.field),
        reason: reason.startsWith('validation.') ? first.key : reason,
      });
    },
    {
      ...extra,
      field: first.field,
      details: problems.slice(0, MAX_DETAILS).map((p) => ({ field: p.field, key: p.key })),
    },
  );
}
