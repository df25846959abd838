import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// PSPP (GNU's SPSS, Debian's `pspp`, installed by .ci/run) as an independent reader of our .sav
// files: runs syntax on a file and gives back what PSPP printed, or converts the file to CSV. Tests
// compare what we exported (variables, labels, cases) and, later, our statistics with PSPP's.

const run = promisify(execFile);
export const PSPP = process.env.PSPP ?? '/usr/bin/pspp';
export const PSPP_CONVERT = process.env.PSPP_CONVERT ?? '/usr/bin/pspp-convert';
/**
 * Whether PSPP is installed: `npm test` runs only what needs no OS package (DESIGN.md 4), so the
 * checks by PSPP skip without it; `.ci/run` installs it, and under CI they never skip (a missing PSPP
 * fails them).
 */
export const hasPspp = Boolean(process.env.CI) || (existsSync(PSPP) && existsSync(PSPP_CONVERT));

async function inTemp<T>(sav: Buffer, work: (dir: string, file: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pspp-'));
  try {
    const file = path.join(dir, 'data.sav');
    await writeFile(file, sav);
    return await work(dir, file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Runs `syntax` after `GET FILE` of the .sav; the output as `format` (csv: one table after another,
 * as PSPP's CSV driver writes them; txt: PSPP's text tables). Rejects with PSPP's messages on an error.
 */
export function psppRun(sav: Buffer, syntax: string, format: 'csv' | 'txt' = 'csv'): Promise<string> {
  return inTemp(sav, async (dir, file) => {
    const sps = path.join(dir, 'run.sps');
    const out = path.join(dir, `out.${format}`);
    await writeFile(sps, `SET LOCALE='UTF-8'.\nGET FILE='${file}'.\n${syntax}\n`);
    const res = await run(PSPP, ['-b', '-o', out, sps], { maxBuffer: 64 * 1024 * 1024 });
    const text = await readFile(out, 'utf8');
    if (/^(error|warning):/im.test(res.stdout + res.stderr) || /\berror:/i.test(text))
      throw new Error(`pspp: ${res.stdout}${res.stderr}${text}`);
    return text;
  });
}

/** The file's cases as CSV by pspp-convert (a header of variable names; `labels` for value labels). */
export function psppCsv(sav: Buffer, opts: { labels?: boolean } = {}): Promise<string> {
  return inTemp(sav, async (dir, file) => {
    const out = path.join(dir, 'cases.csv');
    await run(PSPP_CONVERT, [...(opts.labels ? ['--labels'] : []), file, out], {
      maxBuffer: 64 * 1024 * 1024,
    });
    return readFile(out, 'utf8');
  });
}

/** A CSV text split into rows of cells (quotes as PSPP writes them: "" inside a quoted cell). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** PSPP's CSV output split into its tables, by title ("Table: Variables" → "Variables"). */
export function psppTables(text: string): Map<string, string[][]> {
  const tables = new Map<string, string[][]>();
  for (const block of text.split(/\r?\n\r?\n/)) {
    const m = /^Table: (.*)\r?\n([\s\S]*)$/.exec(block.trim());
    if (m) tables.set(m[1], parseCsv(m[2] + '\n'));
  }
  return tables;
}
