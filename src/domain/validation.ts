import * as v from 'valibot';

// Valibot pieces shared by the forms and the server. Messages are i18n keys of the `validation`
// group (src/i18n/*/validation.ts): the client and the server translate them with the same texts.

export const EMAIL_LOCAL_MAX = 64;
export const EMAIL_DOMAIN_MAX = 255;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export type ValidationKey =
  | 'required'
  | 'email'
  | 'emailShort'
  | 'emailLocalTooLong'
  | 'emailDomainTooLong'
  | 'passwordDigit'
  | 'passwordLowercase'
  | 'passwordMin'
  | 'passwordMax'
  | 'minThree'
  | 'integer'
  | 'positiveInteger'
  | 'url'
  | 'notEmptyString'
  | 'json'
  | 'passwordsMatch'
  | 'tooLong'
  | 'type'
  | 'tooBig'
  | 'tooSmall'
  | 'controlChars'
  | 'invalid'
  | 'tooDeep'
  | 'idsOrFilter'
  | 'language'
  | 'languageDuplicate'
  | 'languageNotListed'
  | 'sourceLanguageRemoved';

/**
 * How deep a JSON body may nest (objects and arrays, the body itself being level 1). A real
 * questionnaire reaches about 10 (body → content → questionnaires → block → question → answer →
 * redirect); 64 leaves room for anything sane and stops a 50 000-deep body before any code walks it.
 */
export const MAX_JSON_DEPTH = 64;

/** What a 32-bit integer column (every id, count and amount in the database) holds. */
export const INT32_MAX = 2_147_483_647;
/** Bounds a number to a 32-bit column; the message says the maximum. */
export const int32Max = v.maxValue<number, number, 'tooBig'>(INT32_MAX, 'tooBig');
/**
 * Half of a UTF-16 surrogate pair standing alone: no character at all. JSON lets a body write one
 * (`"\\ud800"`); stored, it would come back as U+FFFD, not what was sent (and two different ones
 * would then collide as one name).
 */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Control characters other than tab, line feed and carriage return (NUL among them). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/** A positive id in a JSON body, bounded to its column. */
export const bodyId = v.pipe(
  v.number('type'),
  v.integer('integer'),
  v.minValue(1, 'positiveInteger'),
  int32Max,
);
/**
 * A whole number written in a query: decimal digits only, so an empty value (`?limit=`), a blank,
 * `1e3` or `0x10` is refused as "not a number" rather than read as 0 or some other number by
 * JavaScript's Number() (issue 34).
 */
export const queryDigits = v.regex<string, 'integer'>(/^-?\d{1,16}$/, 'integer');

/** A whole number from a query, between min and max (messages as every number's). */
export const queryInt = (min: number, max: number) =>
  v.pipe(
    v.string('type'),
    queryDigits,
    v.toNumber('integer'),
    v.integer('integer'),
    v.minValue(min, 'positiveInteger'),
    v.maxValue(max, 'tooBig'),
  );

/**
 * A calendar day written YYYY-MM-DD (UTC) that exists: 2026-02-30 is refused, where Date.parse
 * reads it as March 2nd.
 */
export const isoDay = v.pipe(
  v.string('type'),
  v.regex(/^\d{4}-\d{2}-\d{2}$/, 'invalid'),
  v.check((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'invalid'),
);

/** A positive id in a query string, bounded to its column. */
export const queryId = v.pipe(
  v.string('required'),
  queryDigits,
  v.toNumber('integer'),
  v.integer('integer'),
  v.minValue(1, 'positiveInteger'),
  int32Max,
);

const required = v.pipe(v.string('type'), v.trim(), v.nonEmpty('required'));

/** An email as the spec checks it: a valid address, local part ≤ 64, domain ≤ 255 characters. */
export const email = v.pipe(
  required,
  v.toLowerCase(),
  v.check((s) => s.indexOf('@') <= EMAIL_LOCAL_MAX, 'emailLocalTooLong'),
  v.check((s) => s.length - s.indexOf('@') - 1 <= EMAIL_DOMAIN_MAX, 'emailDomainTooLong'),
  v.rfcEmail('email'),
);

/** A new password: 8–128 characters with a digit and a lowercase letter. */
export const newPassword = v.pipe(
  v.string('type'),
  v.nonEmpty('required'),
  v.minLength(PASSWORD_MIN, 'passwordMin'),
  v.maxLength(PASSWORD_MAX, 'passwordMax'),
  v.regex(/\d/, 'passwordDigit'),
  v.regex(/\p{Ll}/u, 'passwordLowercase'),
);

/**
 * For strict objects: a missing key is 'required', a key the schema does not know is 'unknownField',
 * and something that is not an object at all (a string where the reply is due) is 'type'.
 */
export const objectMessage = (issue: v.BaseIssue<unknown>) =>
  issue.expected === 'never' ? 'unknownField' : issue.expected === 'Object' ? 'type' : 'required';

export const LoginBody = v.strictObject(
  {
    email,
    // Existing passwords are not re-checked against today's rules: only presence and a sane size.
    password: v.pipe(v.string('type'), v.nonEmpty('required'), v.maxLength(1024, 'tooLong')),
  },
  objectMessage,
);
export type LoginBody = v.InferOutput<typeof LoginBody>;

export const PasswordSetBody = v.strictObject(
  {
    userId: bodyId,
    password: newPassword,
  },
  objectMessage,
);

export const fullname = v.pipe(required, v.minLength(3, 'minThree'), v.maxLength(200, 'tooLong'));

/**
 * The message key shown for an issue. A number past one of its bounds names the bound ("At most
 * 100", "At least 14") whatever key the schema gave: "Invalid value" told nobody what to type. A
 * lower bound of 0 or 1 keeps the spec's "This field must be a positive number".
 */
export function issueKey(issue: v.BaseIssue<unknown>): string {
  const n = Number(issue.requirement);
  if (typeof issue.input === 'number' && Number.isFinite(n)) {
    if (issue.type === 'max_value') return 'tooBig';
    if (issue.type === 'min_value' && n > 1) return 'tooSmall';
  }
  // A list past its length says items, not characters, whatever key the schema gave.
  if (issue.type === 'max_length' && Array.isArray(issue.input)) return 'tooMany';
  // An object left out (no body at all, or a nested one) is missing, not of the wrong type.
  if (issue.input === undefined && OBJECT_KINDS.has(issue.type)) return 'required';
  return VALIBOT_TEXT.test(issue.message) ? keyOfKind(issue) : issue.message;
}

const OBJECT_KINDS = new Set(['object', 'strict_object', 'loose_object', 'object_with_rest']);

/** valibot's own English messages ("Invalid key: Expected …"): our keys are single words. */
const VALIBOT_TEXT = /\s/;

/**
 * The key for an issue of a schema that gave no key of its own: the caller gets "This field is
 * required", "Unknown field", "At most 100 characters" in their language, never valibot's English.
 */
function keyOfKind(issue: v.BaseIssue<unknown>): string {
  switch (issue.type) {
    case 'object':
    case 'strict_object':
    case 'loose_object':
    case 'object_with_rest':
      return objectMessage(issue);
    case 'max_length':
      return 'tooLong';
    case 'min_length':
    case 'non_empty':
      return Number(issue.requirement) <= 1 ? 'required' : 'invalid';
    case 'max_value':
      return 'tooBig';
    case 'min_value':
      return Number(issue.requirement) > 1 ? 'tooSmall' : 'positiveInteger';
    case 'string':
    case 'number':
    case 'boolean':
    case 'array':
      return issue.input === undefined ? 'required' : 'type';
    default:
      return 'invalid';
  }
}

/** Parameters a message key needs, so `tooLong` and `passwordMin` can say their number. */
export function messageParams(issue: v.BaseIssue<unknown>): Record<string, number> {
  const n = Number(issue.requirement);
  const key = issueKey(issue);
  if (key === 'tooSmall') return { min: n };
  if (key === 'tooBig' && issue.message !== 'tooBig') return { max: n };
  if (issue.message === 'passwordMin') return { min: Number.isFinite(n) ? n : PASSWORD_MIN };
  if (issue.message === 'tooBig') return { max: Number.isFinite(n) ? n : INT32_MAX };
  if (key === 'tooLong' || key === 'tooMany' || issue.message === 'passwordMax')
    return { max: Number.isFinite(n) ? n : PASSWORD_MAX };
  return {};
}
