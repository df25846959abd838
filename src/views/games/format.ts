// Dates of the games and pricing pages in the interface language.

const formats = new Map<string, Intl.DateTimeFormat>();

export function formatDateTime(locale: string, ms: number): string {
  let f = formats.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    formats.set(locale, f);
  }
  return f.format(ms);
}

const dates = new Map<string, Intl.DateTimeFormat>();

export function formatDate(locale: string, ms: number): string {
  let f = dates.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
    dates.set(locale, f);
  }
  return f.format(ms);
}

/** The message of a failed call (an ApiError's is already translated). */
export const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));
