import { use, useLayoutEffect, useState, type ReactNode } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { loadFullLocale } from './locale';

// Renders its children only once the whole dictionary is loaded and the translation functions in
// context have been rebuilt from it (they copy the groups they were made from). Suspends meanwhile,
// so the route's loading screen shows.

let applied = false;

export function FullLocale({ children }: { children: ReactNode }) {
  const { locale, setLocale } = useI18nContext();
  use(loadFullLocale(locale));
  const [fresh, setFresh] = useState(applied);
  useLayoutEffect(() => {
    if (fresh) return;
    setLocale(locale);
    applied = true;
    setFresh(true);
  }, [fresh, locale, setLocale]);
  return fresh ? <>{children}</> : null;
}
