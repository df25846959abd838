import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { contentLanguages, isRightToLeft, nativeLanguageName } from '../../domain/content/languages';
import { interfaceLocale, type SurveyLocale } from '../../i18n/survey';
import type { LanguageOption } from './api';
import { useTexts } from './Texts';

// The respondent page's languages (issue 32): the questionnaire's language and the interface's.
// The server chooses the first one (the SDK's locale, the link's ?lang=, the browser's
// Accept-Language, the source: GET /survey/:token); a resumed respondent continues in the language
// of their last page. The header's picker lists the questionnaire's languages and switches the
// questions and the interface at once; a language without an interface dictionary shows its
// questions with the interface in English. A questionnaire in one language keeps the interface
// picker (Russian, English) it always had.

export const LOCALE_KEY = 'survey-locale';

const INTERFACE: LanguageOption[] = [
  { code: 'ru', name: 'Русский' },
  { code: 'en', name: 'English' },
];

export function optionsOf(content: { languages?: readonly string[] }): LanguageOption[] {
  return contentLanguages(content).map((code) => ({ code, name: nativeLanguageName(code) }));
}

export function useSurveyLanguage(initial: () => SurveyLocale) {
  const [locale, setLocale] = useState<SurveyLocale>(initial);
  const [languages, setLanguages] = useState<LanguageOption[]>([]);
  const [language, setLanguage] = useState<string | null>(null);
  const multi = languages.length > 1;

  /** What the server says: the questionnaire's languages and the respondent's one. */
  const learn = useCallback((options: LanguageOption[] | undefined, chosen: string | null | undefined) => {
    if (!options || options.length === 0) return;
    setLanguages(options);
    if (!chosen) return;
    setLanguage(chosen);
    if (options.length > 1) setLocale(interfaceLocale(chosen));
  }, []);

  const pick = useCallback(
    (code: string) => {
      if (multi) setLanguage(code);
      const l = multi ? interfaceLocale(code) : (code as SurveyLocale);
      localStorage.setItem(LOCALE_KEY, l);
      setLocale(l);
    },
    [multi],
  );

  return { locale, language, languages, multi, learn, pick };
}

/**
 * `<html lang dir>`: the questionnaire's language while its questions show, else the interface's.
 * Set in the commit that changes the texts (a layout effect), so a screen reader never meets Russian
 * questions still marked English (a passive effect may run after the new texts are painted).
 */
export function usePageLanguage(lang: string, title: string) {
  const last = useRef('');
  useLayoutEffect(() => {
    const root = document.documentElement;
    root.lang = lang;
    if (isRightToLeft(lang)) root.dir = 'rtl';
    else if (last.current && isRightToLeft(last.current)) root.removeAttribute('dir');
    last.current = lang;
    document.title = title;
  }, [lang, title]);
}

export function LanguagePicker({
  languages,
  value,
  onPick,
}: {
  languages: LanguageOption[];
  value: string;
  onPick: (code: string) => void;
}) {
  const { s } = useTexts();
  const options = languages.length > 1 ? languages : INTERFACE;
  return (
    <label className="flex items-center gap-2 text-sm">
      <span>{s.language}</span>
      <select
        className="min-h-9 rounded-md border border-slate-400 bg-white px-2"
        value={value}
        onChange={(e) => onPick(e.target.value)}
      >
        {options.map((o) => (
          <option key={o.code} value={o.code} lang={o.code}>
            {o.name}
          </option>
        ))}
      </select>
    </label>
  );
}
