import { createRequire } from 'node:module';
import path from 'node:path';
import type { City } from '../../src/domain/lookups';
import { CITY_NAMES_RU, REGION_NAMES_RU } from './ru-names';

// The Russian places of GET /cities, read once from the npm package country-state-city (5,545
// places in 84 regions, Latin script) and indexed for search in either script:
//   - a Cyrillic query is transliterated to Latin the way the data set spells names (BGN/PCGN-like),
//     and both sides are reduced to a "skeleton" that forgets the spelling choices transliterations
//     disagree on (soft signs, ё, й/ий/ый endings, ye/e), so «Тольятти» finds "Tol’yatti";
//   - the largest cities and every region also carry a Russian name (ru-names.ts), matched directly
//     and shown to Russian users, and the cities' order there ranks results (Moscow before Moskovskiy);
//     its transliteration is a key too, so "Moskva" finds Москва (the data set says "Moscow");
//   - a match at the start of a name ranks before a match at the start of a later word, before one
//     inside a word.
// Two corrections to the data, each because a user would otherwise get a wrong answer:
//   - administrative districts ("… Rayon", "… District", "… Gorod") are not places a respondent lives
//     in, so they are left out;
//   - the data set files Irkutsk Oblast's places under the code UA-40 (Sevastopol's) and leaves IRK
//     empty; places east of 60°E under UA-40 are moved back to IRK.

/** Names people use that are neither the data set's nor the transliteration of the Russian one. */
const ALIASES: Record<string, string[]> = {
  'MOW:Moscow': ['Мск', 'Msk'],
  'SPE:Saint Petersburg': ['Питер', 'Piter', 'СПб', 'SPb', 'St Petersburg', 'Leningrad', 'Ленинград'],
  'SAM:Tol’yatti': ['Togliatti'],
};

const ADMIN_UNIT = /\b(rayon|district|gorod|okrug|ulus)\b/i;

const CYR_TO_LAT: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k', л: 'l',
  м: 'm', н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch', ш: 'sh',
  щ: 'shch', ъ: '', ы: 'y', ь: '', э: 'e', ю: 'yu', я: 'ya',
};

/** Cyrillic to Latin, letter by letter; anything else is kept. */
export function transliterate(text: string): string {
  let out = '';
  for (const ch of text.toLowerCase()) out += CYR_TO_LAT[ch] ?? ch;
  return out;
}

/**
 * The form both a query and a name are compared in: Latin, lower case, no diacritics or soft signs,
 * with the spellings transliterations disagree on folded together.
 */
export function skeleton(text: string): string {
  return transliterate(text)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['’ʹʼ`"«»]/g, '')
    .replace(/[-\s.,()]+/g, ' ')
    .replace(/iy\b|yy\b|iy(?=[^aeiouy])/g, 'y')
    .replace(/yy/g, 'y')
    .replace(/ye/g, 'e')
    .replace(/yo/g, 'e')
    .replace(/j/g, 'y')
    .replace(/ii/g, 'i')
    .trim();
}

/** Lower case with ё as е, for matching Russian names typed either way. */
function folded(text: string): string {
  return text.toLowerCase().replace(/ё/g, 'е').replace(/[-\s]+/g, ' ').trim();
}

interface Entry {
  id: string;
  latin: string;
  ru: string | null;
  region: string;
  /** Position in the list of largest cities; large for the rest. */
  rank: number;
  keys: string[];
  ruKey: string | null;
}

let index: Entry[] | null = null;
let regionIndex: Map<string, { en: string; ru: string }> | null = null;

/**
 * The data set, read on first use: the package parses every city of the world when loaded, and a
 * download thread (server/reports/download-threads.ts), which imports the reports' modules but is
 * given the place names, never needs it. Once the index is built the package is let go: held in
 * require's cache, its ≈ 850 000 strings (≈ 65 MB of heap) stayed live for the process's life, and
 * every full garbage collection of the server marked them again.
 */
function readDataSet(read: (data: typeof import('country-state-city')) => void) {
  const require = createRequire(import.meta.url);
  const main = require.resolve('country-state-city');
  try {
    read(require(main) as typeof import('country-state-city'));
  } finally {
    // Every module of the package (lib/cjs/*.js and its JSON assets): the index keeps copies of the
    // few names it needs, so nothing refers to them any more.
    const lib = path.dirname(path.dirname(main));
    for (const file of Object.keys(require.cache)) if (file.startsWith(lib + path.sep)) delete require.cache[file];
  }
}

function build() {
  readDataSet(indexFrom);
}

function indexFrom({ City: CscCity, State }: typeof import('country-state-city')) {
  const ruByKey = new Map(CITY_NAMES_RU.map(([key, name], i) => [key, { name, rank: i }]));
  regionIndex = new Map(
    State.getStatesOfCountry('RU').map((s) => [s.isoCode, { en: s.name, ru: REGION_NAMES_RU[s.isoCode] ?? s.name }]),
  );
  const entries: Entry[] = [];
  const seen = new Set<string>();
  for (const c of CscCity.getCitiesOfCountry('RU') ?? []) {
    if (ADMIN_UNIT.test(c.name)) continue;
    let region = c.stateCode;
    if (region === 'UA-40' && Number(c.longitude) > 60) region = 'IRK';
    const id = `${region}:${c.name}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const ru = ruByKey.get(id);
    entries.push({
      id,
      latin: c.name,
      ru: ru?.name ?? null,
      region,
      rank: ru?.rank ?? Number.MAX_SAFE_INTEGER,
      // The Russian name transliterated too, so Latin letters find it the way Russians type it:
      // "Moskva" and "Sankt-Peterburg", not only the data set's "Moscow" and "Saint Petersburg".
      keys: [c.name, ...(ru ? [ru.name] : []), ...(ALIASES[id] ?? [])].map(skeleton),
      ruKey: ru ? folded(ru.name) : null,
    });
  }
  // Irkutsk Oblast's name: the data set has the region with no places in it.
  if (!regionIndex.has('IRK')) regionIndex.set('IRK', { en: 'Irkutsk', ru: REGION_NAMES_RU.IRK });
  entries.sort((a, b) => a.rank - b.rank || a.latin.localeCompare(b.latin));
  index = entries;
}

function entries(): Entry[] {
  if (!index) build();
  return index!;
}

export function regions(): Map<string, { en: string; ru: string }> {
  if (!regionIndex) build();
  return regionIndex!;
}

/** How well an entry matches: 0 exact, 1 starts with, 2 a word starts with, 3 contains; -1 no match. */
function score(e: Entry, query: string, ruQuery: string | null): number {
  let best = -1;
  const consider = (name: string | null, q: string | null) => {
    if (!name || !q) return;
    let s = -1;
    if (name === q) s = 0;
    else if (name.startsWith(q)) s = 1;
    else if (name.includes(` ${q}`)) s = 2;
    else if (name.includes(q)) s = 3;
    if (s >= 0 && (best < 0 || s < best)) best = s;
  };
  for (const k of e.keys) consider(k, query);
  consider(e.ruKey, ruQuery);
  return best;
}

export interface CitySearch {
  search: string;
  limit: number;
  region?: string;
  locale: 'ru' | 'en';
}

/** Places whose name matches the query in either script, best matches and largest cities first. */
export function searchCities({ search, limit, region, locale }: CitySearch): City[] {
  const query = skeleton(search);
  const ruQuery = /[а-яё]/i.test(search) ? folded(search) : null;
  const pool = region ? entries().filter((e) => e.region === region) : entries();
  let found: Entry[];
  if (!query && !ruQuery) {
    found = pool.slice(0, limit);
  } else {
    const scored: { e: Entry; s: number }[] = [];
    for (const e of pool) {
      const s = score(e, query, ruQuery);
      if (s >= 0) scored.push({ e, s });
    }
    scored.sort((a, b) => a.s - b.s || a.e.rank - b.e.rank || a.e.latin.localeCompare(b.e.latin));
    found = scored.slice(0, limit).map((x) => x.e);
  }
  const regionNames = regions();
  return found.map((e) => {
    const r = regionNames.get(e.region);
    return {
      id: e.id,
      name: locale === 'ru' && e.ru ? e.ru : e.latin,
      latinName: e.latin,
      region: { id: e.region, name: (locale === 'ru' ? r?.ru : r?.en) ?? e.region },
    };
  });
}

/** Every place id, for tests and for checking stored values. */
export function cityIds(): string[] {
  return entries().map((e) => e.id);
}
