import type { TranslationFunctions } from '../../../i18n/i18n-types';
import type { ItemKind } from '../../../domain/content/flat';
import { isTranslationField } from '../../../domain/content/flat';
import { languageName } from '../../../domain/content/languages';
import { QUESTION_CATEGORIES, type QuestionCategory } from '../../../domain/content/model';

// How the merge and history screens name an item, a field and a field's value, in the reader's language.

const MAX = 120;
const short = (s: string) => (s.length > MAX ? `${s.slice(0, MAX - 1)}…` : s);

export function itemName(LL: TranslationFunctions, kind: ItemKind, label: string): string {
  return LL.versions.item({
    kind: LL.versions.kinds[kind](),
    label: label.trim() ? short(label) : LL.versions.empty(),
  });
}

/** A field's name; a text in another language ('translations.en.text') says which: "Text (English)". */
export function fieldName(LL: TranslationFunctions, field: string, locale = 'en'): string {
  const names = LL.versions.fields as unknown as Record<string, (() => string) | undefined>;
  if (isTranslationField(field)) {
    const [, code, own] = field.split('.');
    return LL.versions.translated({
      field: names[own]?.() ?? own,
      language: languageName(code, locale, false),
    });
  }
  return names[field]?.() ?? field;
}

export function valueText(LL: TranslationFunctions, field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return LL.versions.empty();
  if (typeof value === 'boolean') return value ? LL.common.yes() : LL.common.no();
  if (field === 'category' && QUESTION_CATEGORIES.includes(value as QuestionCategory))
    return LL.common.categories[value as QuestionCategory]();
  if (typeof value === 'string') return short(value);
  if (Array.isArray(value) && value.length === 0) return LL.versions.empty();
  return short(JSON.stringify(value));
}
