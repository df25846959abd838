import fs from 'node:fs';
import { expect, it } from 'vitest';
import { ROUTES } from '../../src/views/routes';
import { AUTH_ACTOR_FILE, MAIN_LAYOUT_FILE, ROUTE_FILES } from '../../src/views/routeFiles';

// routeFiles.ts names each route's page module for the server (the chunks the route's HTML asks the
// browser to fetch, server/spa/shell.ts); routes.tsx imports the same modules lazily. A route added
// or moved in one and not the other would preload the wrong chunks: these fail first.

/** The page module of each route, read from routes.tsx's lazy imports. */
function lazyPages(): Map<string, string> {
  const text = fs.readFileSync('src/views/routes.tsx', 'utf8');
  const out = new Map<string, string>();
  for (const m of text.matchAll(/path: '([^']+)'[^}]*?import\('\.\/([^']+)'\)/gs))
    out.set(m[1], `src/views/${m[2]}.tsx`);
  const editor = /import\('\.\/(editor\/EditorPage)'\)/.exec(text);
  if (editor) out.set('/project', `src/views/${editor[1]}.tsx`);
  return out;
}

it('names the page module, the layout and the openness of every route as routes.tsx has them', () => {
  expect(Object.keys(ROUTE_FILES).sort()).toEqual(ROUTES.map((r) => r.path).sort());
  const pages = lazyPages();
  for (const r of ROUTES) {
    const files = ROUTE_FILES[r.path];
    expect(files.page, r.path).toBe(pages.get(r.path));
    expect(files.layout, r.path).toBe(r.layout);
    expect(!!files.public, r.path).toBe(!!r.public);
    expect(fs.existsSync(files.page), files.page).toBe(true);
  }
});

it('names modules that exist and that the start-up loads lazily', () => {
  const app = fs.readFileSync('src/views/App.tsx', 'utf8');
  expect(app).toContain("import('./layouts/MainLayout')");
  expect(fs.existsSync(MAIN_LAYOUT_FILE)).toBe(true);
  const store = fs.readFileSync('src/views/auth/authStore.ts', 'utf8');
  expect(store).toContain("import('./startAuth')");
  expect(fs.existsSync(AUTH_ACTOR_FILE)).toBe(true);
});
