import type { ProjectContent } from '../../../domain/content/model';
import { sourceLanguage } from '../../../domain/content/languages';
import { planImport, type ImportPlan } from '../../../domain/translations/plan';
import type { TextUnit } from '../../../domain/translations/units';
import { readXliffFile, xliffOf, type FileReadError } from '../../../domain/translations/xliffFile';
import type { XlsxReadError } from '../../../domain/translations/xlsx';

// ExcelJS (about 240 KB gzip) is a chunk of its own again, asked for only for a workbook: an XLIFF
// download or upload costs saxes alone (8 KB).
const loadXlsx = () => import('../../../domain/translations/xlsx');

// The translators' files in the browser: a download of one language's texts, and a file read back
// into the plan of what it would change. Its own chunk (with saxes and ExcelJS), loaded on the first
// click in the translation view; the editor's first chunk never carries it.

/** The largest translation file read (a 1 000-question XLIFF is about 2 MB). */
export const MAX_FILE_MB = 20;

export interface DownloadOptions {
  pid: number;
  projectName: string;
  where: (unit: TextUnit) => string;
}

function save(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** "project-12-ru-en.xlf": the project and the pair of languages, which a translator's folder sorts by. */
const fileName = (pid: number, content: ProjectContent, target: string, ext: string) =>
  `project-${pid}-${sourceLanguage(content)}-${target}.${ext}`;

export async function download(
  format: 'xliff' | 'xlsx',
  content: ProjectContent,
  target: string,
  options: DownloadOptions,
): Promise<void> {
  if (format === 'xliff') {
    const text = xliffOf(content, target, {
      fileId: `project-${options.pid}`,
      original: options.projectName || undefined,
      where: options.where,
    });
    save(new Blob([text], { type: 'application/xliff+xml' }), fileName(options.pid, content, target, 'xlf'));
  } else {
    const { xlsxOf, XLSX_MIME } = await loadXlsx();
    const data = await xlsxOf(content, target, options.where);
    save(new Blob([data], { type: XLSX_MIME }), fileName(options.pid, content, target, 'xlsx'));
  }
}

export interface FileFailure {
  ok: false;
  reason: FileReadError | XlsxReadError | 'tooBig' | 'type';
  line?: number;
  found?: string;
  source?: string;
  code?: string;
  mb?: number;
}

export type TranslationRead = { ok: true; plan: ImportPlan; inlineCodes: number } | FileFailure;

export async function readTranslation(
  file: File,
  content: ProjectContent,
  target: string,
): Promise<TranslationRead> {
  if (file.size > MAX_FILE_MB * 1024 * 1024) return { ok: false, reason: 'tooBig', mb: MAX_FILE_MB };
  const lower = file.name.toLowerCase();
  if (lower.endsWith('.xlsx')) {
    const { readXlsxFile } = await loadXlsx();
    const read = await readXlsxFile(await file.arrayBuffer(), content, target);
    if (!read.ok) return { ok: false, reason: read.reason, code: target };
    return { ok: true, plan: planImport(content, target, read.units), inlineCodes: 0 };
  }
  if (!/\.(xlf|xliff|xml)$/.test(lower)) return { ok: false, reason: 'type' };
  const read = readXliffFile(await file.text(), content, target);
  if (!read.ok) return { ...read, source: sourceLanguage(content) };
  return { ok: true, plan: planImport(content, target, read.units), inlineCodes: read.inlineCodes.length };
}
