import { useCallback, useMemo } from 'react';
import type { Command } from '../../../domain/content/commands';
import {
  contentLanguages,
  languageName,
  translation,
  type TextField,
  type Translatable,
} from '../../../domain/content/languages';
import { unitKey, type TextUnit, type UnitKind } from '../../../domain/translations/units';
import { usePathLabel } from '../panels/usePanel';
import { useI18nContext } from '../../../i18n/i18n-react';
import { EditorActor } from '../editorActor';
import { useEditorView } from '../EditorUi';

// The language the panels and the outline edit, chosen with the toolbar's language switch. A text
// field in the source language edits the item's own field as before; in another language it edits
// that language's translation (one `texts.set` command, undoable and saved like any edit), and shows
// the source text as its placeholder: what a respondent sees while it is not translated.

export interface TextLanguage {
  /** The language edited: the chosen one while the questionnaire has it, else the source. */
  language: string;
  source: string;
  isSource: boolean;
  /** The questionnaire's languages, source first. */
  languages: readonly string[];
}

export function useTextLanguage(): TextLanguage {
  const { language } = useEditorView();
  // The list object changes only when a language is added or removed.
  const listed = EditorActor.useSelector((s) => s.context.doc.content.languages);
  return useMemo(() => {
    const languages = contentLanguages({ languages: listed });
    const chosen = language && languages.includes(language) ? language : languages[0];
    return { language: chosen, source: languages[0], isSource: chosen === languages[0], languages };
  }, [language, listed]);
}

/** A language's name in the interface's language ("English", «Английский»). */
export function useLanguageName(): (code: string) => string {
  const { locale } = useI18nContext();
  return useCallback((code: string) => languageName(code, locale), [locale]);
}

export interface TextBinding {
  /** What the field shows: the source text, or the translation ('' while there is none). */
  value: string;
  /** The source text, shown as the placeholder of a translation not typed yet. */
  placeholder: string | undefined;
  /** The command for a typed text. */
  command: (text: string) => Command;
  /** The language's code for the field's `lang` attribute. */
  lang: string;
}

/**
 * One text of an item in the edited language. `sourceCommand` is the field's own command in the
 * source language (the panels keep theirs: `question.update`, `answer.update`…).
 */
export function bindText(
  tl: TextLanguage,
  item: Translatable,
  field: TextField,
  where: { kind: UnitKind; questionId: string; childId?: string | null },
  sourceValue: string,
  sourceCommand: (text: string) => Command,
): TextBinding {
  if (tl.isSource)
    return { value: sourceValue, placeholder: undefined, command: sourceCommand, lang: tl.source };
  const key = unitKey(where.kind, where.questionId, where.childId ?? null, field);
  return {
    value: translation(item, field, tl.language, { languages: tl.languages }) ?? '',
    placeholder: sourceValue || undefined,
    command: (text) => ({ type: 'texts.set', language: tl.language, texts: [{ key, text }] }),
    lang: tl.language,
  };
}

/** Where a text is, as the editor numbers it: "Block 2 › Question 12 › Answer 3", "… › "Other"". */
export function useUnitPlace(): (unit: TextUnit, multipleQuestionnaires: boolean) => string {
  const { LL } = useI18nContext();
  const pathLabel = usePathLabel();
  return useCallback(
    (u, multiple) =>
      pathLabel({
        ...(multiple ? { questionnaire: u.questionnaire } : {}),
        block: u.block,
        question: u.question,
        ...(u.kind === 'answer'
          ? { answer: u.child! }
          : u.kind === 'statement'
            ? { statement: u.child! }
            : {}),
      }) +
      (u.kind === 'question' && u.field !== 'text'
        ? `${LL.panels.path.separator()}${LL.translations.view.fields[u.field]()}`
        : ''),
    [LL, pathLabel],
  );
}
