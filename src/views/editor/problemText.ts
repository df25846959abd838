import type { TranslationFunctions } from '../../i18n/i18n-types';
import { summaryOf, type Problem } from '../../domain/content/problems';

/** The translated text of a rules problem: its own message, with the spec's summary where one applies. */
export function problemText(LL: TranslationFunctions, p: Problem): string {
  const params: Record<string, string | number> = { ...p.params };
  if (p.rule === 'redirectTarget' && typeof params.reason === 'string') {
    params.reason =
      LL.editor.redirectReason[params.reason as keyof TranslationFunctions['editor']['redirectReason']]();
  }
  const own = (LL.editor.rules[p.rule] as (x: Record<string, string | number>) => string)(params);
  const summary = summaryOf(p);
  return summary ? `${LL.editor.summary[summary]()} — ${own}` : own;
}
