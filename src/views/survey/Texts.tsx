import { createContext, useContext } from 'react';
import { SURVEY_TEXTS, type SurveyLocale, type SurveyTexts } from '../../i18n/survey';

// The respondent's dictionary in React: a context with the current locale and its texts.

export const TextsContext = createContext<{ locale: SurveyLocale; s: SurveyTexts }>({
  locale: 'ru',
  s: SURVEY_TEXTS.ru,
});

export const useTexts = () => useContext(TextsContext);
