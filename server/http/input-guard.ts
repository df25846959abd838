import type * as v from 'valibot';
import { CONTROL_CHARS, LONE_SURROGATE, MAX_JSON_DEPTH } from '../../src/domain/validation';

// Checks that every schema gets for free, before valibot runs (issue #17): text never carries NUL or
// other control characters (PostgreSQL refuses NUL, and no form can type them) nor half of a
// surrogate pair (stored as U+FFFD, not what was sent), numbers are finite and safe integers at
// most (1e308 or 2^64 is never a value a column holds), and an array never stands where the schema
// wants an object (valibot's object schemas accept arrays, so `content: []` used to pass as an
// empty questionnaire).

export interface InputProblem {
  field: string;
  key: 'controlChars' | 'brokenText' | 'tooBig' | 'type' | 'tooDeep';
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

/**
 * The first problem in the raw input, judged by its values alone, in document order. Iterative (an
 * explicit stack), and a value nested deeper than MAX_JSON_DEPTH is itself the problem: bodies are
 * refused earlier (server/http/json-body.ts), but a value may reach parse() another way.
 */
export function valueProblem(input: unknown, path = ''): InputProblem | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: input, path, depth: 0 }];
  while (stack.length > 0) {
    const { value, path: at, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (CONTROL_CHARS.test(value)) return { field: at || 'body', key: 'controlChars' };
      if (LONE_SURROGATE.test(value)) return { field: at || 'body', key: 'brokenText' };
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER)
        return { field: at || 'body', key: 'tooBig' };
    } else if (value && typeof value === 'object') {
      if (depth >= MAX_JSON_DEPTH) return { field: at || 'body', key: 'tooDeep' };
      // Pushed last to first, so the first child is looked at first.
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--)
          stack.push({ value: value[i], path: join(at, i), depth: depth + 1 });
      } else {
        const entries = Object.entries(value);
        for (let i = entries.length - 1; i >= 0; i--) {
          const [k, val] = entries[i];
          stack.push({ value: val, path: join(at, k), depth: depth + 1 });
        }
        for (const [k] of entries) {
          if (CONTROL_CHARS.test(k)) return { field: join(at, 'key'), key: 'controlChars' };
          if (LONE_SURROGATE.test(k)) return { field: join(at, 'key'), key: 'brokenText' };
        }
      }
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

/**
 * The first place where the input has an array and the schema wants an object. It recurses along
 * the schema, never deeper than the schema itself (no schema here is recursive), whatever the input.
 */
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
