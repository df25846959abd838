import type { TextEntry } from '../content/languageEdits';
import type { ProjectContent } from '../content/model';
import { textUnits, unitText, type TextUnit } from './units';

// What a translator's file (XLIFF or XLSX) would change, before anything changes: the texts to set
// (one `texts.set` command, so the whole file is one undoable step), the units the questionnaire
// does not have (deleted since the export, or another project's file), the units left empty, and
// those whose source text changed since the file was made (their translation may be of the old
// text: applied, and named so the researcher can look).

/** One unit as a file gives it: its key, the source text it was made from (if it says), its target. */
export interface FileUnit {
  key: string;
  source?: string | null;
  target: string | null;
}

export interface ImportPlan {
  language: string;
  /** The texts that change. */
  texts: TextEntry[];
  /** Keys the questionnaire does not have. */
  unknown: string[];
  /** Units of the file without a target (or a blank one): left as they are. */
  empty: number;
  /** Units whose target is the text already there. */
  unchanged: number;
  /** Units applied whose source text is no longer the one in the file. */
  sourceChanged: TextUnit[];
}

export function planImport(
  content: ProjectContent,
  language: string,
  units: readonly FileUnit[],
): ImportPlan {
  const byKey = new Map<string, TextUnit>();
  for (const u of textUnits(content)) byKey.set(u.key, u);
  const plan: ImportPlan = { language, texts: [], unknown: [], empty: 0, unchanged: 0, sourceChanged: [] };
  const taken = new Set<string>();
  for (const f of units) {
    const unit = byKey.get(f.key);
    if (!unit) {
      plan.unknown.push(f.key);
      continue;
    }
    if (taken.has(f.key)) continue;
    taken.add(f.key);
    if (f.target === null || f.target.trim() === '') {
      plan.empty++;
      continue;
    }
    if (unitText(content, unit, language) === f.target) {
      plan.unchanged++;
      continue;
    }
    plan.texts.push({ key: f.key, text: f.target });
    if (typeof f.source === 'string' && f.source !== unit.source) plan.sourceChanged.push(unit);
  }
  return plan;
}
