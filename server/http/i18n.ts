import type { FastifyRequest } from 'fastify';
import { loadAllLocales } from '../../src/i18n/i18n-util.sync';
import { i18nObject, loadedLocales } from '../../src/i18n/i18n-util';
import type { Locales, TranslationFunctions } from '../../src/i18n/i18n-types';

// The server speaks the caller's language: the client sends its locale in Accept-Language, and
// every message (errors, mail, log entries) comes from the same typesafe-i18n texts as the UI.

loadAllLocales();
const translators: Record<Locales, TranslationFunctions> = { ru: i18nObject('ru'), en: i18nObject('en') };

export function localeOf(req: Pick<FastifyRequest, 'headers'>): Locales {
  const header = String(req.headers['accept-language'] ?? '')
    .trim()
    .toLowerCase();
  return header.startsWith('en') ? 'en' : 'ru';
}

export function translator(locale: Locales): TranslationFunctions {
  return translators[locale];
}

/** Looks a dotted key up in a locale's texts ("people.log.userCreated"); the key itself if unknown. */
export function translateKey(locale: Locales, key: string, params: Record<string, unknown> = {}): string {
  // The translator is a proxy that answers every path, so check that the text exists in the plain
  // translation object first.
  let raw: unknown = loadedLocales[locale];
  let fn: unknown = translators[locale];
  for (const part of key.split('.')) {
    raw = raw && typeof raw === 'object' ? (raw as Record<string, unknown>)[part] : undefined;
    fn = fn ? (fn as Record<string, unknown>)[part] : undefined;
  }
  return typeof raw === 'string' && typeof fn === 'function'
    ? String((fn as (p: unknown) => string)(params))
    : key;
}
