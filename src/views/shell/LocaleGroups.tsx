import { use, useLayoutEffect, useState, type ReactNode } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { loadedLocales } from '../../i18n/i18n-util';
import { BOOT_GROUPS, loadGroups, type Group } from './locale';

// Renders its children once the dictionary groups they show are loaded and the translation
// functions in context have been rebuilt with them (i18nObject copies the groups it was made from).
// Suspends meanwhile, so the route's loading screen shows.

/** The groups the context's translation functions were last built from. */
let applied = new Set<string>(BOOT_GROUPS);

export function LocaleGroups({ need, children }: { need: readonly Group[]; children: ReactNode }) {
  const { locale, setLocale } = useI18nContext();
  use(loadGroups(locale, need));
  const stale = need.some((g) => !applied.has(g));
  const [, rebuilt] = useState(0);
  useLayoutEffect(() => {
    if (!stale) return;
    applied = new Set(Object.keys(loadedLocales[locale] ?? {}));
    setLocale(locale);
    rebuilt((n) => n + 1);
  }, [stale, locale, setLocale]);
  return stale ? null : <>{children}</>;
}
