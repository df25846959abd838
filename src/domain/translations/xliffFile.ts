import { sourceLanguage } from '../content/languages';
import type { ProjectContent } from '../content/model';
import type { FileUnit } from './plan';
import { textUnits, unitText, type TextUnit } from './units';
import { readXliff, writeXliff, type XliffReadError } from './xliff';

// A questionnaire's texts in one language as an XLIFF 2.0 file, and such a file read back into the
// units an import plans with (plan.ts). One <unit> per text, its id the unit's key (units.ts).

export interface ExportOptions {
  /** The <file> id: the project. */
  fileId: string;
  /** The project's name, for the translator. */
  original?: string;
  /** Where a text is ("Block 2 › Question 4 › Answer 3"), written as the unit's note. */
  where?: (unit: TextUnit) => string;
}

export function xliffOf(content: ProjectContent, language: string, options: ExportOptions): string {
  return writeXliff({
    srcLang: sourceLanguage(content),
    trgLang: language,
    fileId: options.fileId,
    original: options.original,
    units: textUnits(content).map((u) => ({
      id: u.key,
      source: u.source,
      target: unitText(content, u, language) ?? null,
      note: options.where?.(u),
    })),
  });
}

export type FileReadError =
  | XliffReadError
  /** The file's target language is another one than the one being imported. */
  | 'otherLanguage'
  /** The file's source language is not the questionnaire's. */
  | 'otherSource';

export type FileRead =
  | { ok: true; units: FileUnit[]; inlineCodes: string[] }
  | { ok: false; reason: FileReadError; line?: number; found?: string };

/** The same language: case aside, and a region the file adds ('en-GB' for 'en'). */
export const sameLanguage = (file: string, ours: string) => {
  const f = file.trim().toLowerCase();
  return f === ours.toLowerCase() || f.split(/[-_]/)[0] === ours.toLowerCase();
};

export function readXliffFile(text: string, content: ProjectContent, language: string): FileRead {
  const read = readXliff(text);
  if (!read.ok) return read;
  if (read.trgLang && !sameLanguage(read.trgLang, language))
    return { ok: false, reason: 'otherLanguage', found: read.trgLang };
  const source = sourceLanguage(content);
  if (read.srcLang && !sameLanguage(read.srcLang, source))
    return { ok: false, reason: 'otherSource', found: read.srcLang };
  return {
    ok: true,
    units: read.units.map((u) => ({ key: u.id, source: u.source, target: u.target })),
    inlineCodes: read.inlineCodes,
  };
}
