import { AGE_MAX, AGE_MIN, EDUCATION_LEVELS, GENDERS } from '../../domain/lookups';
import { FILTER_KEYS, type ReportFilters } from '../../domain/reports';
import { isSupportedLanguage } from '../../domain/content/languages';

// The /report page's state in its address (issue 23): the filters and the Compare section's rows
// and columns, so a copied link opens the same view. Values that make no sense are dropped, as if
// they were not there; the server checks everything again.

const ID = /^[A-Za-z0-9_-]{1,32}(:[A-Za-z0-9_-]{1,32})?$/;

function age(s: string | null): number | undefined {
  if (s === null || !/^\d{1,2}$/.test(s)) return undefined;
  const n = Number(s);
  return n >= AGE_MIN && n <= AGE_MAX ? n : undefined;
}

export function filtersFromSearch(search: string): ReportFilters {
  const q = new URLSearchParams(search);
  const f: ReportFilters = {};
  const gender = q.get('gender');
  if (gender && (GENDERS as readonly string[]).includes(gender)) f.gender = gender;
  const min = age(q.get('ageMin'));
  const max = age(q.get('ageMax'));
  if (min !== undefined && (max === undefined || min <= max)) f.ageMin = min;
  if (max !== undefined && (min === undefined || min <= max)) f.ageMax = max;
  const city = q.get('city')?.trim();
  if (city && city.length <= 120) f.city = city;
  const education = q.get('education');
  if (education && (EDUCATION_LEVELS as readonly string[]).includes(education)) f.education = education;
  const portrait = q.get('portrait');
  if (portrait && /^[A-Za-z0-9_-]{1,32}$/.test(portrait)) f.portrait = portrait;
  const language = q.get('language');
  if (isSupportedLanguage(language)) f.language = language;
  return f;
}

export function compareFromSearch(search: string): { rows: string; cols: string } {
  const q = new URLSearchParams(search);
  const pick = (k: string) => {
    const v = q.get(k) ?? '';
    return ID.test(v) ? v : '';
  };
  return { rows: pick('rows'), cols: pick('cols') };
}

/** The address with the filters and the comparison replaced (other parameters, pid first, kept). */
export function searchWith(
  search: string,
  patch: { filters?: ReportFilters; rows?: string; cols?: string },
): string {
  const q = new URLSearchParams(search);
  if (patch.filters) {
    for (const k of FILTER_KEYS) q.delete(k);
    for (const k of FILTER_KEYS) {
      const v = patch.filters[k];
      if (v !== undefined && v !== '') q.set(k, String(v));
    }
  }
  for (const k of ['rows', 'cols'] as const) {
    const v = patch[k];
    if (v === undefined) continue;
    if (v === '') q.delete(k);
    else q.set(k, v);
  }
  return q.toString();
}
