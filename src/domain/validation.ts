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
  | 'idsOrFilter';

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
/** A positive id in a query string, bounded to its column. */
export const queryId = v.pipe(
  v.string('required'),
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

/** Parameters a message key needs, so `tooLong` and `passwordMin` can say their number. */
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
  return issue.message;
}

export function messageParams(issue: v.BaseIssue<unknown>): Record<string, number> {
  const n = Number(issue.requirement);
  const key = issueKey(issue);
  if (key === 'tooSmall') return { min: n };
  if (key === 'tooBig' && issue.message !== 'tooBig') return { max: n };
  if (issue.message === 'passwordMin') return { min: Number.isFinite(n) ? n : PASSWORD_MIN };
  if (issue.message === 'tooBig') return { max: Number.isFinite(n) ? n : INT32_MAX };
  if (issue.message === 'passwordMax' || issue.message === 'tooLong')
    return { max: Number.isFinite(n) ? n : PASSWORD_MAX };
  return {};
}
