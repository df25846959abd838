import { regions, searchCities } from '../data/cities';

// The names of the places respondents store by id (the runner keeps a city as "MOS:Podolsk" and a
// region as "MOS", the ids of GET /cities): the report shows them in the reader's language. A value
// that is no known id (older data, a place typed by hand) is shown as it is.

const byLocale = new Map<'ru' | 'en', Map<string, string>>();

/** Every place's name in the locale, as [id, name] pairs (for a download thread: placeNamesGiven). */
export function placeNames(locale: 'ru' | 'en'): [string, string][] {
  return [...names(locale)];
}

/** Names made elsewhere (by the server for its download threads), so this process never builds them. */
export function placeNamesGiven(locale: 'ru' | 'en', pairs: [string, string][]): void {
  byLocale.set(locale, new Map(pairs));
}

function names(locale: 'ru' | 'en'): Map<string, string> {
  let map = byLocale.get(locale);
  if (!map) {
    map = new Map();
    for (const c of searchCities({ search: '', limit: Number.MAX_SAFE_INTEGER, locale }))
      map.set(c.id, c.name);
    for (const [code, r] of regions()) map.set(code, locale === 'ru' ? r.ru : r.en);
    byLocale.set(locale, map);
  }
  return map;
}

export function placeNamer(locale: 'ru' | 'en'): (id: string) => string {
  const map = names(locale);
  return (id) => map.get(id) ?? id;
}
