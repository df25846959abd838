import { LANGUAGE_NAMES } from './languageNames';

// A questionnaire in several languages (issue 32; the shape agreed in docs/decisions.md, "A text in
// several languages"). `content.languages` lists BCP 47 codes, the first being the source language;
// absent reads as ['ru'] (the platform's base language), so content written before reads unchanged.
// The existing text fields hold the source text; each translatable item carries
// `translations?: { [code]: { text?, other?, scaleMin?, scaleMax? } }` for the other languages.
//
// `localized` is the one accessor every screen calls (the runner, the editor, the report, the
// files): no screen picks a language or a fallback by itself.

/** The languages a questionnaire may have, in the order the editor offers them. */
export const SUPPORTED_LANGUAGES = [
  'ru',
  'en',
  'uk',
  'be',
  'kk',
  'uz',
  'hy',
  'az',
  'ka',
  'tr',
  'de',
  'fr',
  'es',
  'it',
  'pt',
  'pl',
  'zh',
  'ja',
  'ko',
  'ar',
] as const;
export type LanguageCode = (typeof SUPPORTED_LANGUAGES)[number];

/** The source language of content that does not name one. */
export const DEFAULT_SOURCE_LANGUAGE: LanguageCode = 'ru';
const DEFAULT_LANGUAGES: readonly string[] = Object.freeze([DEFAULT_SOURCE_LANGUAGE]);

const SUPPORTED: ReadonlySet<string> = new Set(SUPPORTED_LANGUAGES);
export const isSupportedLanguage = (code: unknown): code is LanguageCode =>
  typeof code === 'string' && SUPPORTED.has(code);

/** Languages written right to left (the page sets `dir` for them). */
const RTL: ReadonlySet<string> = new Set(['ar']);
export const isRightToLeft = (code: string) => RTL.has(code);

/** The translatable texts of a question; answers and statements have `text` only. */
export const QUESTION_TEXT_FIELDS = ['text', 'other', 'scaleMin', 'scaleMax'] as const;
export type TextField = (typeof QUESTION_TEXT_FIELDS)[number];

/** One language's texts of an item. */
export interface ItemTranslation {
  text?: string;
  other?: string;
  scaleMin?: string;
  scaleMax?: string;
}
export type Translations = { [code: string]: ItemTranslation | undefined };

/** What the accessors need of an item: its source texts and its translations. */
export interface Translatable {
  text: string;
  other?: string | null;
  scaleLabels?: { min: string; max: string } | null;
  translations?: Translations;
}

/** What the accessors need of the content: its language list. */
export interface HasLanguages {
  languages?: readonly string[];
}

/** The questionnaire's languages, source first (['ru'] for content that names none). */
export function contentLanguages(content: HasLanguages): readonly string[] {
  const l = content.languages;
  return l && l.length > 0 ? l : DEFAULT_LANGUAGES;
}

export const sourceLanguage = (content: HasLanguages): string => contentLanguages(content)[0];

/** The languages other than the source: the ones that have translations. */
export const targetLanguages = (content: HasLanguages): readonly string[] =>
  contentLanguages(content).slice(1);

export const hasLanguage = (content: HasLanguages, code: string) => contentLanguages(content).includes(code);

/**
 * Whether a save would remove or replace the source language of content that already has questions
 * (their texts are in it; the server compares with the stored version and refuses with 400). Empty
 * content may choose its source: a new questionnaire written in English starts as ['en'].
 */
export function sourceLanguageChanged(
  stored: HasLanguages & {
    questionnaires: readonly { blocks: readonly { questions: readonly unknown[] }[] }[];
  },
  next: HasLanguages,
): boolean {
  if (sourceLanguage(stored) === sourceLanguage(next)) return false;
  return stored.questionnaires.some((qn) => qn.blocks.some((b) => b.questions.length > 0));
}

/** The source text of a field ('' where the item has none: no "other" answer, no scale labels). */
export function sourceText(item: Translatable, field: TextField): string {
  switch (field) {
    case 'text':
      return item.text;
    case 'other':
      return item.other ?? '';
    case 'scaleMin':
      return item.scaleLabels?.min ?? '';
    case 'scaleMax':
      return item.scaleLabels?.max ?? '';
  }
}

/**
 * The text of a field in a language, or undefined when that language has none: a blank translation
 * reads as missing, and so does a language the questionnaire does not list. The source language
 * gives the source text (which may be '' too; the rules judge that one).
 */
export function translation(
  item: Translatable,
  field: TextField,
  language: string,
  content: HasLanguages,
): string | undefined {
  const languages = contentLanguages(content);
  if (language === languages[0]) return sourceText(item, field);
  if (!languages.includes(language)) return undefined;
  const t = item.translations?.[language]?.[field];
  return t === undefined || t.trim() === '' ? undefined : t;
}

/** The text of a field in a language, falling back to the source text when it has no translation. */
export function localized(
  item: Translatable,
  field: TextField,
  language: string,
  content: HasLanguages,
): string {
  return translation(item, field, language, content) ?? sourceText(item, field);
}

/** What `localizeContent` needs of a content: its language list and its questionnaires' texts. */
interface LocalizableContent extends HasLanguages {
  questionnaires: readonly {
    blocks: readonly {
      questions: readonly (Translatable & {
        answers: readonly Translatable[];
        statements: readonly Translatable[];
      })[];
    }[];
  }[];
}

/**
 * The content as a respondent sees it in one language: every text through `localized` (falling
 * back to the source), everything else as it is (ids, so answers are stored by id whatever the
 * language). The runner and the preview show this; the flow runs on it as on the source. The source
 * language (or one the content does not have) gives the content itself.
 */
export function localizeContent<C extends LocalizableContent>(content: C, language: string): C {
  const languages = contentLanguages(content);
  if (language === languages[0] || !languages.includes(language)) return content;
  const text = <T extends Translatable>(item: T): T =>
    item.translations?.[language] ? { ...item, text: localized(item, 'text', language, content) } : item;
  return {
    ...content,
    questionnaires: content.questionnaires.map((qn) => ({
      ...qn,
      blocks: qn.blocks.map((b) => ({
        ...b,
        questions: b.questions.map((q) => ({
          ...text(q),
          ...(q.other != null && { other: localized(q, 'other', language, content) }),
          ...(q.scaleLabels && {
            scaleLabels: {
              min: localized(q, 'scaleMin', language, content),
              max: localized(q, 'scaleMax', language, content),
            },
          }),
          answers: q.answers.map(text),
          statements: q.statements.map(text),
        })),
      })),
    })),
  };
}

/**
 * Whether a field needs a translation at all: a source text that is blank (an answer shown as a
 * picture, the default "Other" label, no scale labels) has nothing to translate.
 */
export const needsTranslation = (item: Translatable, field: TextField) =>
  sourceText(item, field).trim() !== '';

/**
 * The language to use among the questionnaire's: the first wish it has (exactly, or by its primary
 * subtag: 'en-GB' finds 'en'), else the source. Wishes come in the order of precedence (the SDK's
 * locale, the link's ?lang=, Accept-Language's entries by weight).
 */
export function pickLanguage(content: HasLanguages, wishes: readonly (string | null | undefined)[]): string {
  const languages = contentLanguages(content);
  for (const wish of wishes) {
    if (!wish) continue;
    const w = wish.trim().toLowerCase();
    if (languages.includes(w)) return w;
    const primary = w.split(/[-_]/)[0];
    if (languages.includes(primary)) return primary;
  }
  return languages[0];
}

/** Accept-Language's language tags by weight, highest first ('*' and q=0 left out). */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  const out: { tag: string; q: number; i: number }[] = [];
  header
    .split(',')
    .slice(0, 32)
    .forEach((part, i) => {
      const [tag, ...params] = part.trim().split(';');
      if (!tag || tag === '*' || tag.length > 35) return;
      const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const q = qp ? Number(qp.slice(2)) : 1;
      if (!(q > 0)) return;
      out.push({ tag: tag.trim(), q, i });
    });
  return out.sort((a, b) => b.q - a.q || a.i - b.i).map((x) => x.tag);
}

const namesCache = new Map<string, Intl.DisplayNames | null>();

/** Intl's name of a language the table (languageNames.ts) does not hold; the code where it has none. */
function intlName(code: string, inLanguage: string): string {
  let names = namesCache.get(inLanguage);
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames([inLanguage], { type: 'language', fallback: 'code' });
    } catch {
      names = null;
    }
    namesCache.set(inLanguage, names);
  }
  return names?.of(code) ?? code;
}

/**
 * A language's name as the reader's language says it ("English", «английский»): the supported
 * languages' from the generated table (languageNames.ts: the editor's first frame names the text's
 * language, and the first Intl.DisplayNames of a page costs 15–19 ms of ICU data), any other from
 * Intl.DisplayNames; the code itself where the runtime has no names. Capitalised for a list or a
 * menu; `capital = false` keeps the language's own case for the middle of a sentence («английский»).
 */
export function languageName(code: string, inLanguage: string, capital = true): string {
  const name =
    (inLanguage === code ? LANGUAGE_NAMES.own : LANGUAGE_NAMES[inLanguage])?.[code] ??
    intlName(code, inLanguage);
  if (!capital) return name;
  // Russian and others write language names in lower case; a list item or a menu starts with a capital.
  return name.charAt(0).toLocaleUpperCase(inLanguage) + name.slice(1);
}

/** A language's name in that language itself ("English", «Русский»), for a respondent's picker. */
export const nativeLanguageName = (code: string) => languageName(code, code);
