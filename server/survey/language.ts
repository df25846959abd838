import * as v from 'valibot';
import type { Db } from '../db';
import {
  acceptedLanguages,
  contentLanguages,
  hasLanguage,
  nativeLanguageName,
  pickLanguage,
  sourceLanguage,
  type HasLanguages,
} from '../../src/domain/content/languages';

// The respondent's questionnaire language (issue 32; docs/decisions/languages.md). Kept apart from
// respond.ts (the answer path), which only asks these functions.
//
// Precedence for a new respondent: the game SDK's `locale` (kept on the ticket), the link's
// `?lang=`, the browser's Accept-Language, the source language. Each wish is matched exactly or by
// its primary subtag ('en-GB' finds 'en') against the questionnaire's languages; a wish it does not
// have is passed over, never refused. Afterwards the language of each page counts: a respondent who
// switches in the middle is stored in the language of their last page.

/** A language tag as callers send it (BCP 47: 'en', 'pt-BR', 'zh-Hant-TW'; '_' taken for '-'). */
export const LanguageTag = v.pipe(
  v.string('type'),
  v.maxLength(35, 'tooLong'),
  v.regex(/^[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8})*$/, 'language'),
);

/** What the page shows before the respondent starts: the questionnaire's languages and the one chosen. */
export interface LanguageChoice {
  /** The questionnaire's languages, source first, with their names in themselves ("English"). */
  languages: { code: string; name: string }[];
  /** The language the precedence gives. */
  language: string;
}

export function languageChoice(
  content: HasLanguages,
  wishes: { sdkLocale?: string | null; query?: string | null; acceptLanguage?: string | null },
): LanguageChoice {
  return {
    languages: contentLanguages(content).map((code) => ({ code, name: nativeLanguageName(code) })),
    language: startLanguage(content, { ...wishes, requested: null }),
  };
}

/**
 * A new respondent's language. `requested` is what the page asks for (the start body's `language`:
 * the page resolved the precedence itself, or the respondent picked one in the header); it counts
 * when the questionnaire has it, and the precedence decides otherwise.
 */
export function startLanguage(
  content: HasLanguages,
  wishes: {
    requested?: string | null;
    sdkLocale?: string | null;
    query?: string | null;
    acceptLanguage?: string | null;
  },
): string {
  return pickLanguage(content, [
    wishes.requested,
    wishes.sdkLocale,
    wishes.query,
    ...acceptedLanguages(wishes.acceptLanguage),
  ]);
}

/**
 * The language to store after a page answered in `sent`: null when it does not change (nothing
 * sent, the same as stored, or a language the questionnaire does not have). A stored null is the
 * source (respondents from before migration 021).
 */
export function pageLanguage(
  content: HasLanguages,
  stored: string | null | undefined,
  sent: string | null | undefined,
): string | null {
  if (!sent || !hasLanguage(content, sent)) return null;
  return sent === (stored ?? sourceLanguage(content)) ? null : sent;
}

/** Writes a respondent's language (in the answer's own transaction). */
export async function setRespondentLanguage(db: Db, respondentId: number, language: string): Promise<void> {
  await db.updateTable('respondents').set({ language }).where('id', '=', respondentId).execute();
}
