import { describe, expect, it } from 'vitest';
import { formatNumber } from '../../src/views/ui/formatNumber';

// The report's numbers went from toLocaleString to a kept Intl.NumberFormat: the text must not change.
describe('formatNumber', () => {
  const samples = [0, 7, 1234.5, 1234567.891, -42.125, 0.3333];
  for (const locale of ['ru', 'en'])
    it(`writes ${locale} numbers as toLocaleString does, with and without options`, () => {
      for (const n of samples) {
        expect(formatNumber(n, locale)).toBe(n.toLocaleString(locale));
        const opts = { maximumFractionDigits: 3, minimumFractionDigits: 3 };
        expect(formatNumber(n, locale, opts)).toBe(n.toLocaleString(locale, opts));
        expect(formatNumber(n, locale, { maximumFractionDigits: 1 })).toBe(
          n.toLocaleString(locale, { maximumFractionDigits: 1 }),
        );
      }
    });

  it('keeps formatters apart by locale and options', () => {
    expect(formatNumber(1234.5, 'en')).toBe('1,234.5');
    expect(formatNumber(1234.5, 'en', { maximumFractionDigits: 0 })).toBe('1,235');
    expect(formatNumber(1234.5, 'ru')).toBe((1234.5).toLocaleString('ru'));
    expect(formatNumber(1234.5, 'ru')).not.toBe(formatNumber(1234.5, 'en'));
  });
});
