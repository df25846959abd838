import ExcelJS from 'exceljs';
import { sourceLanguage } from '../content/languages';
import type { ProjectContent } from '../content/model';
import type { FileUnit } from './plan';
import { textUnits, unitText, type TextUnit } from './units';

// A questionnaire's texts in one language as a workbook for a translator who works in a
// spreadsheet: one row per text, the columns `key`, the source language's code, the target
// language's code and `context` (where the text is). Reading back finds the columns by their
// headers, so a translator may add, hide or reorder columns; only `key` and the target's column
// count. ExcelJS writes and reads the file (in the browser this module sits in the lazily loaded
// files chunk, never in the editor's first one).

/**
 * OOXML's escape for characters a cell's XML cannot keep (ECMA-376 ST_Xstring): a carriage return
 * is written `_x000D_` (a raw one would be read back as a line feed), a literal `_xHHHH_` is
 * protected as `_x005F_xHHHH_`. Excel and LibreOffice read both; ExcelJS leaves them to us.
 */
const toCell = (s: string) => s.replace(/_x([0-9A-Fa-f]{4})_/g, '_x005F_x$1_').replace(/\r/g, '_x000D_');
const fromCell = (s: string) =>
  s.replace(/_x([0-9A-Fa-f]{4})_/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export async function xlsxOf(
  content: ProjectContent,
  language: string,
  where?: (unit: TextUnit) => string,
): Promise<ArrayBuffer> {
  const source = sourceLanguage(content);
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(`${source}-${language}`, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = [
    { header: 'key', width: 30 },
    { header: source, width: 60 },
    { header: language, width: 60 },
    { header: 'context', width: 40 },
  ];
  ws.getRow(1).font = { bold: true };
  for (const u of textUnits(content))
    ws.addRow([u.key, toCell(u.source), toCell(unitText(content, u, language) ?? ''), where?.(u) ?? '']);
  // Long texts wrap in the text columns; the target's cells are the ones a translator types into.
  for (const col of [2, 3]) ws.getColumn(col).alignment = { wrapText: true, vertical: 'top' };
  return (await wb.xlsx.writeBuffer()) as ArrayBuffer;
}

export type XlsxReadError = 'notXlsx' | 'noKeyColumn' | 'noLanguageColumn';

export type XlsxRead = { ok: true; units: FileUnit[] } | { ok: false; reason: XlsxReadError };

/** A cell's text: rich text joined, a hyperlink's text, numbers and dates as written. */
function cellText(value: ExcelJS.CellValue): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return fromCell(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    if ('richText' in value) return fromCell(value.richText.map((r) => r.text).join(''));
    if ('text' in value && typeof value.text === 'string') return fromCell(value.text);
    if ('result' in value && value.result !== undefined) return cellText(value.result as ExcelJS.CellValue);
  }
  return null;
}

export async function readXlsxFile(
  data: ArrayBuffer,
  content: ProjectContent,
  language: string,
): Promise<XlsxRead> {
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(data);
  } catch {
    return { ok: false, reason: 'notXlsx' };
  }
  const ws = wb.worksheets[0];
  if (!ws) return { ok: false, reason: 'notXlsx' };
  const header = ws.getRow(1);
  let keyCol = 0;
  let targetCol = 0;
  let sourceCol = 0;
  const source = sourceLanguage(content).toLowerCase();
  header.eachCell((cell, col) => {
    const name = (cellText(cell.value) ?? '').trim().toLowerCase();
    if (name === 'key' && !keyCol) keyCol = col;
    else if (name === language.toLowerCase() && !targetCol) targetCol = col;
    else if (name === source && !sourceCol) sourceCol = col;
  });
  if (!keyCol) return { ok: false, reason: 'noKeyColumn' };
  if (!targetCol) return { ok: false, reason: 'noLanguageColumn' };
  const units: FileUnit[] = [];
  ws.eachRow((row, n) => {
    if (n === 1) return;
    const key = cellText(row.getCell(keyCol).value)?.trim();
    if (!key) return;
    units.push({
      key,
      source: sourceCol ? (cellText(row.getCell(sourceCol).value) ?? '') : null,
      target: cellText(row.getCell(targetCol).value),
    });
  });
  return { ok: true, units };
}
