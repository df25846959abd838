import type { TranslationFunctions } from '../../i18n/i18n-types';
import { summaryOf, type Problem } from '../../domain/content/problems';
import { languageName } from '../../domain/content/languages';

/**
 * The translated text of a rules problem: its own message, with the spec's summary where one
 * applies. A language (a missing translation's) is named in the reader's language (`locale`).
 */
export function problemText(LL: TranslationFunctions, p: Problem, locale = 'en'): string {
  const params: Record<string, string | number> = { ...p.params };
  if (typeof params.language === 'string')
    params.language = languageName(params.language, locale, locale === 'en');
  if (p.rule === 'redirectTarget' && typeof params.reason === 'string') {
    params.reason =
      LL.editor.redirectReason[params.reason as keyof TranslationFunctions['editor']['redirectReason']]();
  }
  const own = (LL.editor.rules[p.rule] as (x: Record<string, string | number>) => string)(params);
  const summary = summaryOf(p);
  return summary ? `${LL.editor.summary[summary]()} — ${own}` : own;
}
