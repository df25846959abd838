import type { Locales, Translations, TranslationFunctions } from '../../i18n/i18n-types';
import { i18nObject, loadedLocales } from '../../i18n/i18n-util';
import { loadFormatters, loadLocaleAsync } from '../../i18n/i18n-util.async';
import { readSettings } from '../../i18n/setup';
import { configureClient } from '../../api/client';

// The dictionary in two steps, so that /login stays within its budget however much text the other
// screens add: the start-up loads the groups that signing in, the 404 page, toasts and dialogs use
// (BOOT_GROUPS); every other page waits for the whole dictionary (loadFullLocale, FullLocale in
// App.tsx) before it renders. The language is chosen as before: stored, else the browser's (en or
// ru), else ru (spec section 9).

export const BOOT_GROUPS = ['common', 'auth', 'validation', 'errors', 'shell'] as const;

// The Russian groups are typed as the base (literal strings), the English ones as Translation.
const bootLoaders: Record<Locales, () => Promise<Partial<Translations>>> = {
  ru: () => import('./bootLocale.ru').then((m) => m.default as unknown as Partial<Translations>),
  en: () => import('./bootLocale.en').then((m) => m.default),
};

export async function setupBootLocale(): Promise<{ locale: Locales; LL: TranslationFunctions }> {
  const { locale } = readSettings();
  const groups = await bootLoaders[locale]();
  loadedLocales[locale] = { ...loadedLocales[locale], ...groups } as Translations;
  loadFormatters(locale);
  const LL = i18nObject(locale);
  configureClient({ t: LL, locale });
  document.documentElement.lang = locale;
  return { locale, LL };
}

/** A promise that says when it has settled, as React's `use` reads it: no suspending on one already loaded. */
type Tracked = Promise<void> & { status?: 'fulfilled'; value?: void };
let full: Tracked | null = null;

/**
 * Loads the whole dictionary once (a second call answers the same promise). main.tsx starts it with
 * the start-up on every page but /login, so FullLocale usually finds it loaded and renders at once
 * (a Suspense reveal costs up to 300 ms of React's throttling).
 */
export function loadFullLocale(locale: Locales): Promise<void> {
  if (!full) {
    const loading: Tracked = loadLocaleAsync(locale).then(
      () => {
        loading.status = 'fulfilled';
        loading.value = undefined;
      },
      (err: unknown) => {
        full = null; // offline before the chunk was cached: try again on the next page
        throw err;
      },
    );
    full = loading;
  }
  return full;
}
