import type { Locales, Translations, TranslationFunctions } from '../../i18n/i18n-types';
import { i18nObject, loadedLocales } from '../../i18n/i18n-util';
import { loadFormatters } from '../../i18n/i18n-util.async';
import { readSettings } from '../../i18n/setup';
import { configureClient } from '../../api/client';

// The dictionary by group (issue 25): only the active language, and of it only the groups a page
// shows. The start-up loads BOOT_GROUPS (the HTTP client's messages, the toast, modal and 404 texts);
// each route names its groups in localeGroups.ts and <LocaleGroups> (LocaleGroups.tsx) waits for
// them. Every group file is its own chunk (vite.config.ts names them i18n-<locale>-<group>). The
// language is chosen as before: stored, else the browser's (en or ru), else ru (spec section 9).

export type Group = keyof Translations;

export const BOOT_GROUPS = ['common', 'errors'] as const satisfies readonly Group[];

const files = import.meta.glob<{ default: unknown }>([
  '../../i18n/ru/*.ts',
  '../../i18n/en/*.ts',
  '!../../i18n/*/index.ts',
]);

/** A promise that says when it has settled, as React's `use` reads it: no suspending on one already loaded. */
export type Tracked = Promise<void> & { status?: 'fulfilled'; value?: void };

const loading = new Map<string, Tracked>();

function loadGroup(locale: Locales, group: Group): Tracked {
  const key = `${locale}/${group}`;
  let p = loading.get(key);
  if (!p) {
    const load = files[`../../i18n/${locale}/${group}.ts`];
    const tracked: Tracked = (load ? load() : Promise.reject(new Error(`no group ${key}`))).then(
      (m) => {
        loadedLocales[locale] = { ...loadedLocales[locale], [group]: m.default } as Translations;
        tracked.status = 'fulfilled';
        tracked.value = undefined;
      },
      (err: unknown) => {
        loading.delete(key); // offline before the chunk was cached: try again on the next page
        throw err;
      },
    );
    p = tracked;
    loading.set(key, p);
  }
  return p;
}

/** Whether every group is in loadedLocales already. */
export function groupsLoaded(locale: Locales, groups: readonly Group[]): boolean {
  return groups.every((g) => loading.get(`${locale}/${g}`)?.status === 'fulfilled');
}

const combined = new Map<string, Tracked>();

/** Loads the groups once (a second call with the same list answers the same promise). */
export function loadGroups(locale: Locales, groups: readonly Group[]): Promise<void> {
  const key = `${locale}:${[...groups].sort().join()}`;
  let p = combined.get(key);
  if (!p) {
    const tracked: Tracked = Promise.all(groups.map((g) => loadGroup(locale, g))).then(
      () => {
        tracked.status = 'fulfilled';
        tracked.value = undefined;
      },
      (err: unknown) => {
        combined.delete(key);
        throw err;
      },
    );
    if (groupsLoaded(locale, groups)) {
      tracked.status = 'fulfilled';
      tracked.value = undefined;
    }
    p = tracked;
    combined.set(key, p);
  }
  return p;
}

export async function setupBootLocale(): Promise<{ locale: Locales; LL: TranslationFunctions }> {
  const { locale } = readSettings();
  await loadGroups(locale, BOOT_GROUPS);
  loadFormatters(locale);
  const LL = i18nObject(locale);
  configureClient({ t: LL, locale });
  document.documentElement.lang = locale;
  return { locale, LL };
}
