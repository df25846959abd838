/** A number field's text as the schemas take it: '' stays empty (required), anything else a number. */
export function numberFrom(text: string): number | '' {
  const t = text.trim();
  return t === '' ? '' : Number(t.replace(',', '.'));
}

const money = new Map<string, Intl.NumberFormat>();
export function formatMoney(locale: string, roubles: number): string {
  let f = money.get(locale);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: 'currency', currency: 'RUB', maximumFractionDigits: 2 });
    money.set(locale, f);
  }
  return f.format(roubles);
}
