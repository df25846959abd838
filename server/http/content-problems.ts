import type { Problem } from '../../src/domain/content/problems';
import { summaryOf } from '../../src/domain/content/problems';
import { languageName } from '../../src/domain/content/languages';
import { badRequest, type Text } from './errors';
import { translateKey } from './i18n';

/** Translated text of one questionnaire problem (a refused save, a refused sending). */
export function problemText(p: Problem): Text {
  return (_t, locale) => {
    const summary = summaryOf(p);
    if (summary) return translateKey(locale, `editor.summary.${summary}`);
    const params: Record<string, unknown> = { ...p.params };
    // A missing translation's language, named in the reader's language ("English", «английский»).
    if (typeof params.language === 'string')
      params.language = languageName(params.language, locale, locale === 'en');
    if (p.rule === 'redirectTarget' && typeof params.reason === 'string')
      params.reason = translateKey(locale, `editor.redirectReason.${params.reason}`);
    return translateKey(locale, `editor.rules.${p.rule}`, params);
  };
}

/** A 400 for the first problem, with its spec code (when it has one), its path and every problem. */
export function refusedFor(problems: readonly Problem[]) {
  const first = problems[0];
  return badRequest(problemText(first), {
    code: first.code ?? first.rule,
    field: first.path,
    details: problems,
  });
}
