import type { Locales, TranslationFunctions } from '../../src/i18n/i18n-types';

// Typed errors that routes throw; the one error handler in app.ts turns them into `{message, code?,
// field?, details?}` with their status, the message translated into the caller's language.

export type Text = (t: TranslationFunctions, locale: Locales) => string;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly text: Text,
    readonly extra: {
      code?: number | string;
      field?: string;
      details?: unknown;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(`HTTP ${status}`);
    this.name = 'HttpError';
  }
}

export const badRequest = (text: Text, extra?: HttpError['extra']) => new HttpError(400, text, extra);
export const unauthorized = (text: Text = (t) => t.errors.unauthorized(), extra?: HttpError['extra']) =>
  new HttpError(401, text, extra);
export const forbidden = (text: Text = (t) => t.errors.forbidden()) => new HttpError(403, text);
export const notFound = (text: Text = (t) => t.errors.notFound()) => new HttpError(404, text);
export const conflict = (text: Text = (t) => t.errors.conflict(), extra?: HttpError['extra']) =>
  new HttpError(409, text, extra);
