import fc from 'fast-check';
import type * as v from 'valibot';

// The fuzzer's inputs: for a route's body or query schema (server/openapi/registry.ts), a plausible
// base value and, field by field, values no schema may accept (wrong types, numbers past their
// columns, control characters, overlong text, arrays for objects), plus whole bodies that are not
// JSON objects at all. Random parts come from fast-check with a fixed seed, so a run is repeatable.

type AnySchema = v.GenericSchema & {
  type: string;
  entries?: Record<string, AnySchema>;
  wrapped?: AnySchema;
  options?: unknown[];
  literal?: unknown;
  pipe?: { kind: string }[];
};

export type Kind = 'number' | 'string' | 'boolean' | 'array' | 'object' | 'choice' | 'any';
export interface Field {
  name: string;
  /** From the body's top: ['settings', 'set_priority']. */
  path: string[];
  kind: Kind;
  required: boolean;
  sample: unknown;
}

const WRAPPERS = new Set(['optional', 'nullable', 'nullish', 'exact_optional', 'undefinedable']);
const OBJECTS = new Set(['object', 'strict_object', 'loose_object', 'object_with_rest']);

/** The schema that says what a field is, through optional wrappers and the `required()` helper's pipe. */
function core(schema: AnySchema): { schema: AnySchema; required: boolean } {
  let required = !WRAPPERS.has(schema.type) || schema.type === 'nullable';
  let s = schema;
  for (let i = 0; i < 6; i++) {
    const inner = s.pipe?.slice(1).find((step) => step.kind === 'schema') as AnySchema | undefined;
    if ((s.type === 'unknown' || WRAPPERS.has(s.type)) && inner) {
      // required(x): optional(unknown) piped into a presence check and then x.
      if (s.pipe?.some((step) => step.kind === 'validation')) required = true;
      s = inner;
      continue;
    }
    if (WRAPPERS.has(s.type) && s.wrapped) {
      s = s.wrapped;
      continue;
    }
    break;
  }
  return { schema: s, required };
}

function kindOf(s: AnySchema): Kind {
  if (s.type === 'number') return 'number';
  if (s.type === 'string') return 'string';
  if (s.type === 'boolean') return 'boolean';
  if (s.type === 'array') return 'array';
  if (OBJECTS.has(s.type)) return 'object';
  if (s.type === 'picklist' || s.type === 'literal' || s.type === 'union') return 'choice';
  return 'any';
}

function sampleOf(s: AnySchema, kind: Kind): unknown {
  if (kind === 'number') return 1;
  if (kind === 'string') return 'Fuzz text';
  if (kind === 'boolean') return false;
  if (kind === 'array') return [];
  if (kind === 'object') return baseOf(s);
  if (s.type === 'picklist') return s.options?.[0];
  if (s.type === 'literal') return s.literal;
  if (s.type === 'union')
    return sampleOf(core(s.options![0] as AnySchema).schema, kindOf(core(s.options![0] as AnySchema).schema));
  return 1;
}

/** The top-level fields of an object schema (empty for anything else). */
export function fieldsOf(schema: v.GenericSchema | undefined): Field[] {
  const s = schema as AnySchema | undefined;
  if (!s?.entries) return [];
  return Object.entries(s.entries).map(([name, sub]) => {
    const c = core(sub);
    const kind = kindOf(c.schema);
    return { name, path: [name], kind, required: c.required, sample: sampleOf(c.schema, kind) };
  });
}

/** Every field, nested objects' fields too (their paths from the top of the body). */
export function allFieldsOf(schema: v.GenericSchema | undefined, prefix: string[] = []): Field[] {
  const s = schema as AnySchema | undefined;
  if (!s?.entries) return [];
  return Object.entries(s.entries).flatMap(([name, sub]) => {
    const c = core(sub);
    const kind = kindOf(c.schema);
    const field = {
      name,
      path: [...prefix, name],
      kind,
      required: c.required,
      sample: sampleOf(c.schema, kind),
    };
    return kind === 'object' ? [field, ...allFieldsOf(c.schema, field.path)] : [field];
  });
}

/** A copy of `base` with the value at `path` replaced, or removed when `value` is `REMOVE`. */
export const REMOVE = Symbol('remove');
export function withValue(base: unknown, path: string[], value: unknown): unknown {
  const copy = structuredClone(base) as Record<string, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) {
    if (!node[key] || typeof node[key] !== 'object') node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1];
  if (value === REMOVE) delete node[last];
  else node[last] = value;
  return copy;
}

export function baseOf(schema: v.GenericSchema | undefined): Record<string, unknown> {
  return Object.fromEntries(fieldsOf(schema).map((f) => [f.name, f.sample]));
}

// ---- bad values ----

const SEED = 1717;
const sample = <T>(arb: fc.Arbitrary<T>, n: number) => fc.sample(arb, { seed: SEED, numRuns: n });

const CONTROL = sample(
  fc
    .tuple(
      fc.string({ maxLength: 8 }),
      fc.constantFrom('\u0000', '\u0001', '\u0007', '\u001b', '\u007f', '\u000b'),
    )
    .map(([s, c]) => `${s}${c}${s}`),
  3,
);
const HUGE = [
  2 ** 31,
  -(2 ** 31) - 1,
  1e308,
  2 ** 53 + 2,
  ...sample(fc.integer({ min: 2 ** 31, max: 2 ** 52 }), 1),
];
const LONG = 'x'.repeat(100_000);

/** Values that no field of this kind accepts. */
export function badValues(kind: Kind): unknown[] {
  const wrongType = {
    number: ['1', true, [1], { n: 1 }, ...HUGE, 1.5],
    string: [12345, true, ['a'], { s: 'a' }, LONG, ...CONTROL],
    boolean: ['true', 1, [true], { b: true }],
    array: [{ a: 1 }, 'x', 1, [LONG], [CONTROL[0]], [2 ** 31, 1e308]],
    object: [[], [{}], 'x', 1, true],
    choice: [LONG, CONTROL[0], [1], { c: 1 }, 2 ** 31],
    any: [LONG, CONTROL[0], 2 ** 31, 1e308],
  } satisfies Record<Kind, unknown[]>;
  return wrongType[kind];
}

/** Bodies that are not a JSON object: malformed text, or JSON of another shape. */
export const RAW_BODIES: { text: string; type: string }[] = [
  { text: '{', type: 'application/json' },
  { text: '{"a":', type: 'application/json' },
  { text: '{"a":1e400}', type: 'application/json' },
  { text: '"\\u0000"', type: 'application/json' },
  { text: '[]', type: 'application/json' },
  { text: '[{"id":1}]', type: 'application/json' },
  { text: 'null', type: 'application/json' },
  { text: '12345678901234567890', type: 'application/json' },
  { text: 'just text', type: 'text/plain' },
  {
    text: '--X\r\nContent-Disposition: form-data; name="images"; filename="a.png"\r\n\r\n\x89PNG',
    type: 'multipart/form-data; boundary=X',
  },
  { text: 'no boundary at all', type: 'multipart/form-data' },
];

/** Query strings: each parameter out of range, mistyped, with control characters, overlong or repeated. */
export function badQueries(schema: v.GenericSchema | undefined): string[] {
  const fields = fieldsOf(schema);
  const base = Object.fromEntries(
    fields.map((f) => [f.name, f.kind === 'choice' && typeof f.sample === 'string' ? f.sample : '1']),
  );
  const qs = (o: Record<string, string | string[]>) => {
    const p = new URLSearchParams();
    for (const [k, val] of Object.entries(o)) for (const x of [val].flat()) p.append(k, x);
    return `?${p.toString()}`;
  };
  const out: string[] = ['?zz=%00', `?${'a'.repeat(3000)}=1`];
  for (const f of fields) {
    for (const bad of ['2147483648', '1e308', '-1', 'abc', 'a\u0000b', 'y'.repeat(5000)])
      out.push(qs({ ...base, [f.name]: bad }));
    out.push(qs({ ...base, [f.name]: [String(base[f.name] ?? '1'), '2147483648'] }));
  }
  return out;
}

// ---- issue 26: depth and size (whole bodies as text: a 50 000-deep value cannot be built and
// serialised by the test itself without the very stack overflow it looks for) ----

export const DEEP = 50_000;
const deepArrayText = '['.repeat(DEEP) + ']'.repeat(DEEP);
const deepObjectText = '{"a":'.repeat(DEEP) + '1' + '}'.repeat(DEEP);
/** Under the 1 MiB body limit with the rest of the body, so it reaches the checks behind it. */
const MEGABYTE_STRING = JSON.stringify('x'.repeat(1_000_000));
const WIDE_ARRAY = `[${Array.from({ length: 100_000 }, (_, i) => i % 10).join(',')}]`;

/** The body's JSON text with one top-level field's value replaced by raw JSON text. */
function withRaw(base: Record<string, unknown>, name: string, raw: string): string {
  const marker = '"__fuzz_raw__"';
  return JSON.stringify({ ...base, [name]: '__fuzz_raw__' }).replace(marker, () => raw);
}

/**
 * Per route: a 50 000-deep array and object as the whole body and as each top-level field, a 1 MB
 * string and a 100 000-element array in each top-level field (and as the body when it has none).
 */
export function sizeCases(
  base: Record<string, unknown>,
  fieldNames: string[],
): { label: string; raw: { text: string; type: string } }[] {
  const json = (text: string) => ({ text, type: 'application/json' });
  const out = [
    { label: `body: ${DEEP}-deep array`, raw: json(deepArrayText) },
    { label: `body: ${DEEP}-deep object`, raw: json(deepObjectText) },
    { label: 'body: 100 000-element array', raw: json(WIDE_ARRAY) },
    { label: 'body: 1 MB string', raw: json(MEGABYTE_STRING) },
  ];
  for (const name of [...fieldNames, 'zzUnknownField']) {
    out.push({ label: `${name}: ${DEEP}-deep array`, raw: json(withRaw(base, name, deepArrayText)) });
    out.push({ label: `${name}: ${DEEP}-deep object`, raw: json(withRaw(base, name, deepObjectText)) });
    out.push({ label: `${name}: 1 MB string`, raw: json(withRaw(base, name, MEGABYTE_STRING)) });
    out.push({ label: `${name}: 100 000-element array`, raw: json(withRaw(base, name, WIDE_ARRAY)) });
  }
  return out;
}
