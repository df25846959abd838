import type { Translation } from '../i18n-types';

const validation: Translation['validation'] = {
  required: 'This field is required',
  email: 'Please enter a valid email',
  emailShort: 'Enter a valid email',
  emailLocalTooLong: 'The part before @ must be at most 64 characters',
  emailDomainTooLong: 'The domain must be at most 255 characters',
  passwordDigit: 'Must contain a number',
  passwordLowercase: 'Must contain a lowercase letter',
  passwordMin: 'At least {min} characters',
  passwordMax: 'At most {max} characters',
  minThree: 'Minimum 3 symbols.',
  integer: 'This field must be a number',
  positiveInteger: 'This field must be a positive number',
  url: 'Enter a valid url',
  notEmptyString: 'Value must not be empty string',
  json: 'Value must be a valid JSON string',
  passwordsMatch: 'Passwords must match',
  tooLong: 'At most {max} characters',
  type: 'Wrong type of value',
  tooBig: 'At most {max}',
  tooSmall: 'At least {min}',
  controlChars: 'Control characters are not allowed',
  unknownField: 'Unknown field',
  invalid: 'Invalid value',
  noticeTitle: 'Required fields',
};
export default validation;
