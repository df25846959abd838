import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

// The SPA's inline scripts, allowed by the Content-Security-Policy by their hashes ('sha256-…'),
// never by 'unsafe-inline'. The HTML is read once, at start: the build writes its inline scripts
// (the editor's head start, vite.config.ts) and the server serves that file unchanged.

/** 'sha256-…' sources of every inline <script> (one without src) of an HTML text. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc\s*=/i.test(m[1] ?? '') || m[2].length === 0) continue;
    hashes.push(`'sha256-${crypto.createHash('sha256').update(m[2], 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/** The hashes of the inline scripts of the SPA's pages in a static folder (none without one). */
export function spaInlineScriptHashes(staticDir: string | undefined | null): string[] {
  if (!staticDir) return [];
  const hashes = new Set<string>();
  for (const page of ['index.html', 'survey.html']) {
    const file = path.join(staticDir, page);
    if (fs.existsSync(file)) for (const h of inlineScriptHashes(fs.readFileSync(file, 'utf8'))) hashes.add(h);
  }
  return [...hashes];
}
