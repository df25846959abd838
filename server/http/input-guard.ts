import type * as v from 'valibot';
import { CONTROL_CHARS } from '../../src/domain/validation';

// Checks that every schema gets for free, before valibot runs (issue #17): text never carries NUL or
// other control characters (PostgreSQL refuses NUL, and no form can type them), numbers are finite
// and safe integers at most (1e308 or 2^64 is never a value a column holds), and an array never
// stands where the schema wants an object (valibot's object schemas accept arrays, so `content: []`
// used to pass as an empty questionnaire).

export interface InputProblem {
  field: string;
  key: 'controlChars' | 'tooBig' | 'type';
}

type AnySchema = v.GenericSchema & {
  type: string;
  entries?: Record<string, AnySchema>;
  wrapped?: AnySchema;
  item?: AnySchema;
  options?: AnySchema[];
  value?: AnySchema;
  pipe?: { kind: string }[];
};

const OBJECT_TYPES = new Set(['object', 'strict_object', 'loose_object', 'object_with_rest']);
const WRAPPERS = new Set([
  'optional',
  'nullable',
  'nullish',
  'exact_optional',
  'undefinedable',
  'non_optional',
  'non_nullable',
  'non_nullish',
]);

const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

/** The first problem in the raw input, judged by its values alone. */
export function valueProblem(input: unknown, path = ''): InputProblem | null {
  if (typeof input === 'string') {
    return CONTROL_CHARS.test(input) ? { field: path || 'body', key: 'controlChars' } : null;
  }
  if (typeof input === 'number') {
    return Number.isFinite(input) && Math.abs(input) <= Number.MAX_SAFE_INTEGER
      ? null
      : { field: path || 'body', key: 'tooBig' };
  }
  if (Array.isArray(input)) {
    for (let i = 0; i < input.length; i++) {
      const p = valueProblem(input[i], join(path, i));
      if (p) return p;
    }
    return null;
  }
  if (input && typeof input === 'object') {
    for (const [k, val] of Object.entries(input)) {
      if (CONTROL_CHARS.test(k)) return { field: join(path, 'key'), key: 'controlChars' };
      const p = valueProblem(val, join(path, k));
      if (p) return p;
    }
  }
  return null;
}

/** Whether a schema (through its wrappers and pipe) accepts an array at all. */
function acceptsArray(schema: AnySchema): boolean {
  if (
    schema.type === 'array' ||
    schema.type === 'tuple' ||
    schema.type === 'unknown' ||
    schema.type === 'any'
  )
    return true;
  if (WRAPPERS.has(schema.type) && schema.wrapped) return acceptsArray(schema.wrapped);
  if (schema.type === 'union' && schema.options) return schema.options.some(acceptsArray);
  return false;
}

/** The first place where the input has an array and the schema wants an object. */
export function shapeProblem(schema: AnySchema, input: unknown, path = ''): InputProblem | null {
  if (input === undefined || input === null) return null;
  for (const step of schema.pipe ?? []) {
    if (step !== schema && step.kind === 'schema' && step !== schema.pipe?.[0]) {
      const p = shapeProblem(step as AnySchema, input, path);
      if (p) return p;
    }
  }
  if (WRAPPERS.has(schema.type) && schema.wrapped) return shapeProblem(schema.wrapped, input, path);
  if (OBJECT_TYPES.has(schema.type)) {
    if (Array.isArray(input)) return { field: path || 'body', key: 'type' };
    if (typeof input !== 'object') return null;
    for (const [k, sub] of Object.entries(schema.entries ?? {})) {
      const p = shapeProblem(sub, (input as Record<string, unknown>)[k], join(path, k));
      if (p) return p;
    }
    return null;
  }
  if (schema.type === 'array' && schema.item && Array.isArray(input)) {
    for (let i = 0; i < input.length; i++) {
      const p = shapeProblem(schema.item, input[i], join(path, i));
      if (p) return p;
    }
    return null;
  }
  if (schema.type === 'record' && schema.value && typeof input === 'object' && !Array.isArray(input)) {
    for (const [k, val] of Object.entries(input)) {
      const p = shapeProblem(schema.value, val, join(path, k));
      if (p) return p;
    }
    return null;
  }
  if (schema.type === 'union' && schema.options && Array.isArray(input) && !acceptsArray(schema)) {
    return schema.options.some((o) => OBJECT_TYPES.has(o.type))
      ? { field: path || 'body', key: 'type' }
      : null;
  }
  return null;
}

export function inputProblem(schema: v.GenericSchema, input: unknown): InputProblem | null {
  return valueProblem(input) ?? shapeProblem(schema as AnySchema, input);
}
