import type { Locales } from './i18n-types';

// The language is chosen before the app mounts: the stored app-settings.locale, else the browser's
// language when it is en or ru, else ru (spec section 9).

export const SETTINGS_KEY = 'app-settings';

export interface AppSettings {
  shrinkSideMenu: boolean;
  locale: Locales;
  hideSideMenu?: boolean;
}

export const DEFAULT_SETTINGS: AppSettings = { shrinkSideMenu: true, locale: 'ru' };

export function readSettings(): AppSettings {
  let stored: Partial<AppSettings> = {};
  try {
    stored = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}') ?? {};
  } catch {
    stored = {};
  }
  const browser = (navigator.language || '').slice(0, 2).toLowerCase();
  const locale: Locales =
    stored.locale === 'en' || stored.locale === 'ru' ? stored.locale : browser === 'en' ? 'en' : 'ru';
  return { ...DEFAULT_SETTINGS, ...stored, locale };
}

export function writeSettings(patch: Partial<AppSettings>): AppSettings {
  const next = { ...readSettings(), ...patch };
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(next));
  return next;
}
