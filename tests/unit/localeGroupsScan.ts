import fs from 'node:fs';
import path from 'node:path';

// Which dictionary groups (LL.<group>) a module can show: the module and everything it imports,
// statically or lazily, inside src/. Used by locale-groups.test.ts to hold each route's declared
// groups (src/views/localeGroups.ts) to what its page, its layout and their dialogs really read.

const SRC = path.resolve(import.meta.dirname, '../../src');
const IMPORT = /(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
// LL.group, t.group (the HTTP client), i18nObject(locale).group (code outside React).
const GROUP = /(?:\b(?:LL|t)\??|i18nObject\([^)]*\))\.(\w+)\b/g;
const GROUPS = new Set(
  fs
    .readdirSync(path.join(SRC, 'i18n/ru'))
    .filter((f) => f !== 'index.ts')
    .map((f) => f.replace(/\.ts$/, '')),
);

function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec);
  for (const f of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`])
    if (fs.existsSync(f) && fs.statSync(f).isFile()) return f;
  return null;
}

/** The groups read by `entry` (a path under src/) and every src module it reaches, minus `stop`. */
export function groupsReached(entry: string, stop: string[] = []): Set<string> {
  const stops = new Set(stop.map((s) => path.join(SRC, s)));
  const seen = new Set<string>();
  const groups = new Set<string>();
  const todo = [path.join(SRC, entry)];
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file) || stops.has(file)) continue;
    seen.add(file);
    // The dictionaries themselves are not readers of it.
    if (file.startsWith(path.join(SRC, 'i18n'))) continue;
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(GROUP)) if (GROUPS.has(m[1])) groups.add(m[1]);
    for (const m of text.matchAll(IMPORT)) {
      const next = resolve(file, m[1] ?? m[2]);
      if (next) todo.push(next);
    }
  }
  return groups;
}
