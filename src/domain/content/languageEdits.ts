import type { Draft } from 'immer';
import { shortLabel, type ChangeCode } from './changelog';
import {
  contentLanguages,
  DEFAULT_SOURCE_LANGUAGE,
  isSupportedLanguage,
  needsTranslation,
  type TextField,
} from './languages';
import type { Answer, ProjectContent, Question, Statement } from './model';
import { parseUnitKey } from '../translations/units';

// The edits of a questionnaire's languages and of its texts in any of them (issue 32): commands of
// their own (commands.ts routes them here), so that each is one undoable step, one change-log row
// and one draft write like any other edit.
//
// Change-log codes (the spec's list has none for languages): adding or removing a language counts
// as a settings change (009, as renaming a questionnaire does); a text in any language as the
// question changed (008). docs/decisions/translations.md.

/** One text to set: the unit's key (translations/units.ts) and the new text ('' clears a translation). */
export interface TextEntry {
  key: string;
  text: string;
}

export type LanguageCommand =
  /** Adds a language after the others (a supported code not listed yet). */
  | { type: 'language.add'; code: string }
  /** Removes a language other than the source, with every translation into it: one step. */
  | { type: 'language.remove'; code: string }
  /**
   * Sets texts of one language: the source fields for the source language, the translations for
   * another. A typed text, a translator's file, a pasted list: all one step, whatever their number.
   * `label` names the step in the change log (a file's name); else the first question's text.
   */
  | { type: 'texts.set'; language: string; texts: TextEntry[]; label?: string };

type D = Draft<ProjectContent>;
type Item = Draft<Question> | Draft<Answer> | Draft<Statement>;
type Result = { code: ChangeCode; label: string } | null;

export function performLanguageCommand(d: D, c: LanguageCommand): Result {
  switch (c.type) {
    case 'language.add': {
      const languages = contentLanguages(d);
      if (!isSupportedLanguage(c.code) || languages.includes(c.code)) return null;
      d.languages = [...languages, c.code];
      return { code: '009', label: c.code };
    }
    case 'language.remove': {
      const languages = contentLanguages(d);
      const at = languages.indexOf(c.code);
      if (at <= 0) return null;
      const rest = languages.filter((l) => l !== c.code);
      // Back to the platform's default alone: the list is left out, as in content written before.
      if (rest.length === 1 && rest[0] === DEFAULT_SOURCE_LANGUAGE) delete d.languages;
      else d.languages = rest;
      for (const qn of d.questionnaires)
        for (const b of qn.blocks)
          for (const q of b.questions) {
            dropLanguage(q, c.code);
            for (const a of q.answers) dropLanguage(a, c.code);
            for (const s of q.statements) dropLanguage(s, c.code);
          }
      return { code: '009', label: c.code };
    }
    case 'texts.set':
      return setTexts(d, c.language, c.texts, c.label);
  }
}

function dropLanguage(item: Item, code: string) {
  if (!item.translations || !(code in item.translations)) return;
  delete item.translations[code];
  if (Object.keys(item.translations).length === 0) delete item.translations;
}

function setTexts(d: D, language: string, texts: TextEntry[], label?: string): Result {
  const languages = contentLanguages(d);
  const at = languages.indexOf(language);
  if (at < 0 || texts.length === 0) return null;
  const questions = new Map<string, Draft<Question>>();
  for (const qn of d.questionnaires)
    for (const b of qn.blocks) for (const q of b.questions) questions.set(q.id, q);
  let first: string | null = null;
  for (const { key, text } of texts) {
    const ref = parseUnitKey(key);
    const q = ref && questions.get(ref.questionId);
    if (!ref || !q) continue;
    const item: Item | undefined =
      ref.kind === 'question'
        ? q
        : ref.kind === 'answer'
          ? q.answers.find((a) => a.id === ref.childId)
          : q.statements.find((s) => s.id === ref.childId);
    if (!item) continue;
    // A translation only of a text the source has (no "other" label, no scale words: nothing to translate).
    if (at > 0 && text !== '' && !needsTranslation(item, ref.field)) continue;
    const changed =
      at === 0 ? setSource(q, item, ref.field, text) : setTranslation(item, ref.field, language, text);
    if (changed) first ??= q.text;
  }
  // Immer yields no patches when every text was already so: no step then (performCommand checks).
  return first === null ? null : { code: '008', label: shortLabel(label ?? first) };
}

function setSource(q: Draft<Question>, item: Item, field: TextField, text: string): boolean {
  if (item !== q) {
    if (item.text === text) return false;
    item.text = text;
    return true;
  }
  switch (field) {
    case 'text':
      if (q.text === text) return false;
      q.text = text;
      return true;
    case 'other':
      // A text for "other" switches nothing on: only a question that has the answer takes it.
      if (q.other === null || q.other === text) return false;
      q.other = text;
      return true;
    case 'scaleMin':
    case 'scaleMax': {
      const labels = q.scaleLabels ?? { min: '', max: '' };
      const key = field === 'scaleMin' ? 'min' : 'max';
      if (labels[key] === text) return false;
      const next = { ...labels, [key]: text };
      q.scaleLabels = next.min === '' && next.max === '' ? null : next;
      return true;
    }
  }
}

function setTranslation(item: Item, field: TextField, language: string, text: string): boolean {
  const all = (item.translations ?? {}) as Record<string, Record<string, string> | undefined>;
  const current = all[language]?.[field];
  if (text === '') {
    if (current === undefined) return false;
    delete all[language]![field];
    if (Object.keys(all[language]!).length === 0) delete all[language];
    if (Object.keys(all).length === 0) delete item.translations;
    return true;
  }
  if (current === text) return false;
  if (!item.translations) item.translations = {};
  const t = item.translations as Record<string, Record<string, string>>;
  t[language] = { ...t[language], [field]: text };
  return true;
}
