// Error codes shared by the server and the client (spec section 8). A numeric code from 40501 to
// 40518 names a questionnaire problem; the named codes are the account errors.

export const CONTENT_ERROR_CODES = [
  40501, 40502, 40503, 40504, 40505, 40506, 40507, 40508, 40509, 40510, 40511, 40512, 40513, 40514, 40515,
  40516, 40517, 40518,
] as const;
export type ContentErrorCode = (typeof CONTENT_ERROR_CODES)[number];

export function isContentErrorCode(code: unknown): code is ContentErrorCode {
  return typeof code === 'number' && (CONTENT_ERROR_CODES as readonly number[]).includes(code);
}

/** Named error codes and the i18n key (group `errors`) of the text that explains each. */
export const NAMED_ERRORS = {
  'email-exists': 'emailExists',
  'invalid-code': 'invalidCode',
  'expired-code': 'expiredCode',
  'cant-confirm': 'cantConfirm',
  'wrong-credentials': 'wrongEmailOrPassword',
  'email-mismatch': 'emailMismatch',
  'invalid-confirmation-link': 'invalidConfirmationLink',
  'account-inactive': 'accountInactive',
} as const;
export type NamedErrorCode = keyof typeof NAMED_ERRORS;

/** The JSON body of every error response. */
export interface ErrorBody {
  message: string;
  code?: number | string;
  /** The field at fault, for 400s, as a dotted path. */
  field?: string;
  /** More detail, e.g. every problem of a questionnaire with its path. */
  details?: unknown;
}
