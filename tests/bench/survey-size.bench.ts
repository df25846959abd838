import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { build } from 'vite';
import type { BenchResult } from './run';

// The respondent page's weight (DESIGN.md 7: /s/:token ≤ 60 KB gzip of JS, no back-office code; the
// runner itself ≤ 25 KB gzip since the languages of issue 32, the stricter of the two).
// Builds for production and adds up the gzip size of every script and style survey.html loads.

export const title = 'Respondent page /s/:token: JS and CSS it loads (gzip)';

export default async function surveySizeBench(): Promise<BenchResult[]> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-size-'));
  const env = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ logLevel: 'warn', mode: 'production', build: { outDir, emptyOutDir: true } });
  } finally {
    process.env.NODE_ENV = env;
  }
  try {
    const html = fs.readFileSync(path.join(outDir, 'survey.html'), 'utf8');
    const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(js|css))"/g)].map((m) => m[1]);
    const gz = (f: string) =>
      zlib.gzipSync(fs.readFileSync(path.join(outDir, f)), { level: 9 }).length / 1024;
    const js = files.filter((f) => f.endsWith('.js'));
    const css = files.filter((f) => f.endsWith('.css'));
    const sum = (list: string[]) => Math.round(list.reduce((n, f) => n + gz(f), 0) * 10) / 10;
    return [
      {
        name: 'JS',
        value: sum(js),
        unit: 'KB gzip',
        budget: 25,
        note: `${js.length} file(s), preact/compat`,
      },
      { name: 'CSS', value: sum(css), unit: 'KB gzip' },
    ];
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}
