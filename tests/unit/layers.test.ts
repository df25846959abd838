import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The server may share the domain and the i18n texts with the SPA, never a view (issue #26): a view
// can change its texts or its imports for the page's sake, and the server would follow unseen.

const root = resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mts|js|mjs)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

/** Every module a file imports by a relative path (static, `export … from`, dynamic), resolved. */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  const re = /(?:from\s*|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g;
  for (const m of text.matchAll(re)) out.push(resolve(dirname(file), m[1]));
  return out;
}

describe('layers', () => {
  it('nothing in server/ imports from src/views', () => {
    const views = join(root, 'src/views');
    const bad: string[] = [];
    for (const file of sources(join(root, 'server')))
      for (const target of relativeImports(file))
        if (target === views || target.startsWith(views + '/'))
          bad.push(`${relative(root, file)} → ${relative(root, target)}`);
    expect(bad).toEqual([]);
  });

  it('the scan sees the imports it looks for (a server file importing the domain is found)', () => {
    const targets = sources(join(root, 'server')).flatMap(relativeImports);
    expect(targets.some((t) => t.startsWith(join(root, 'src/domain/')))).toBe(true);
    expect(targets.some((t) => t === join(root, 'src/i18n/survey'))).toBe(true);
  });
});
