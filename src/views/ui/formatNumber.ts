// A number in the reader's locale. Number.prototype.toLocaleString builds a new Intl.NumberFormat
// on every call: a report's tables, a few hundred numbers, spent 25 ms of their first render in it
// (100 ms on Lighthouse's slowed-down phone). One formatter per locale and options, kept.

const formats = new Map<string, Intl.NumberFormat>();

export function formatNumber(n: number, locale: string, options?: Intl.NumberFormatOptions): string {
  const key = options ? `${locale} ${JSON.stringify(options)}` : locale;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, options);
    formats.set(key, f);
  }
  return f.format(n);
}
