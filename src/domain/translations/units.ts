import {
  contentLanguages,
  needsTranslation,
  sourceText,
  translation,
  type TextField,
  type Translatable,
} from '../content/languages';
import type { ProjectContent, Question } from '../content/model';

// The texts of a questionnaire that a respondent reads, one "unit" each, in reading order: what the
// translation view lists, the translators' files carry and an import writes back. A unit's key is
// stable across edits, moves and sessions (the items' ids and the field), so a file sent to a
// translator last week still finds its texts:
//   q.<questionId>.<text|other|scaleMin|scaleMax>   a question's texts
//   a.<questionId>.<answerId>.text                   an answer
//   s.<questionId>.<statementId>.text                a matrix row
// Ids are [A-Za-z0-9_-], so a key is a valid XLIFF unit id (an NMTOKEN) as it is.

export type UnitKind = 'question' | 'answer' | 'statement';

export interface TextUnit {
  key: string;
  kind: UnitKind;
  questionId: string;
  /** The answer's or the statement's id. */
  childId: string | null;
  field: TextField;
  /** The item that holds the text and its translations. */
  item: Translatable;
  source: string;
  /** Where it is, as the editor numbers it (1-based; the question counted in its questionnaire). */
  questionnaire: number;
  block: number;
  question: number;
  /** The answer's or the statement's number. */
  child: number | null;
}

const QUESTION_FIELDS: readonly TextField[] = ['text', 'other', 'scaleMin', 'scaleMax'];

export const unitKey = (kind: UnitKind, questionId: string, childId: string | null, field: TextField) =>
  kind === 'question'
    ? `q.${questionId}.${field}`
    : `${kind === 'answer' ? 'a' : 's'}.${questionId}.${childId}.text`;

/** What a key names, or null for a key of no shape of ours. */
export function parseUnitKey(
  key: string,
): { kind: UnitKind; questionId: string; childId: string | null; field: TextField } | null {
  const parts = key.split('.');
  if (parts[0] === 'q' && parts.length === 3 && (QUESTION_FIELDS as string[]).includes(parts[2]))
    return { kind: 'question', questionId: parts[1], childId: null, field: parts[2] as TextField };
  if ((parts[0] === 'a' || parts[0] === 's') && parts.length === 4 && parts[3] === 'text')
    return {
      kind: parts[0] === 'a' ? 'answer' : 'statement',
      questionId: parts[1],
      childId: parts[2],
      field: 'text',
    };
  return null;
}

/** A question's units, kept per question object: an edit elsewhere reuses them (a new object is a change). */
const cache = new WeakMap<Question, { at: string; units: TextUnit[] }>();

function questionUnits(q: Question, qn: number, block: number, question: number): TextUnit[] {
  const at = `${qn}.${block}.${question}`;
  const hit = cache.get(q);
  if (hit && hit.at === at) return hit.units;
  const units: TextUnit[] = [];
  const base = { questionId: q.id, questionnaire: qn, block, question };
  for (const field of QUESTION_FIELDS)
    if (needsTranslation(q, field))
      units.push({
        ...base,
        key: unitKey('question', q.id, null, field),
        kind: 'question',
        childId: null,
        field,
        item: q,
        source: sourceText(q, field),
        child: null,
      });
  q.statements.forEach((s, i) => {
    if (s.text.trim() === '') return;
    units.push({
      ...base,
      key: unitKey('statement', q.id, s.id, 'text'),
      kind: 'statement',
      childId: s.id,
      field: 'text',
      item: s,
      source: s.text,
      child: i + 1,
    });
  });
  q.answers.forEach((a, i) => {
    if (a.text.trim() === '') return;
    units.push({
      ...base,
      key: unitKey('answer', q.id, a.id, 'text'),
      kind: 'answer',
      childId: a.id,
      field: 'text',
      item: a,
      source: a.text,
      child: i + 1,
    });
  });
  cache.set(q, { at, units });
  return units;
}

/** Every text to translate (its source text not blank), in reading order. */
export function textUnits(content: ProjectContent): TextUnit[] {
  const out: TextUnit[] = [];
  content.questionnaires.forEach((qn, i) => {
    let n = 0;
    qn.blocks.forEach((b, j) => {
      for (const q of b.questions) {
        n++;
        for (const u of questionUnits(q, i + 1, j + 1, n)) out.push(u);
      }
    });
  });
  return out;
}

/** A unit's text in a language (undefined: none yet; the source language gives the source). */
export const unitText = (content: ProjectContent, unit: TextUnit, language: string) =>
  translation(unit.item, unit.field, language, content);

/** How many of the units have a text in the language. */
export function translatedCount(
  content: ProjectContent,
  units: readonly TextUnit[],
  language: string,
): number {
  let n = 0;
  for (const u of units) if (translation(u.item, u.field, language, content) !== undefined) n++;
  return n;
}

/** The languages that can be translated into (every one but the source). */
export const translatableLanguages = (content: ProjectContent) => contentLanguages(content).slice(1);
