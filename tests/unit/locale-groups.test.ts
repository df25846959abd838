import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { groupsReached } from './localeGroupsScan';
import { BOOT_GROUPS } from '../../src/views/shell/locale';
import { LAYOUT_GROUPS, PAGE_GROUPS, routeGroups } from '../../src/views/localeGroups';
import { ROUTES } from '../../src/views/routes';
import { GUIDE_GROUPS } from '../../src/views/shell/guide';

// Issue 25: a page loads only the dictionary groups it shows. The lists in src/views/localeGroups.ts
// are held to what the code reads (LL.<group>), following every import from the page, its layout
// and the dialogs they open lazily: a missing group would show empty texts, an extra one is
// weight the page does not use.

const LAYOUT_FILES = {
  auth: 'views/layouts/AuthLayout.tsx',
  main: 'views/layouts/MainLayout.tsx',
  editor: 'views/layouts/EditorLayout.tsx',
  empty: 'views/layouts/EmptyLayout.tsx',
} as const;

// Loaded by their own <LocaleGroups>, so not a route's: the guide dialog (opened from the header
// and the editor's help) and the service worker's toast.
const SELF_LOADING = ['views/shell/GuideDialogView.tsx', 'views/shell/pwa.tsx'];
const NOT_A_PAGE = ['views/routes.tsx', ...SELF_LOADING];

/** The page module of each route, read from routes.tsx's lazy imports. */
function pageFiles(): Map<string, string> {
  const text = fs.readFileSync('src/views/routes.tsx', 'utf8');
  const out = new Map<string, string>();
  for (const m of text.matchAll(/path: '([^']+)'[^}]*?import\('\.\/([^']+)'\)/gs))
    out.set(m[1], `views/${m[2]}.tsx`);
  out.set('/project', 'views/editor/EditorPage.tsx');
  return out;
}

const minusBoot = (groups: Iterable<string>) =>
  [...groups].filter((g) => !(BOOT_GROUPS as readonly string[]).includes(g)).sort();

describe('dictionary groups per route', () => {
  it('knows the page module of every route', () => {
    expect([...pageFiles().keys()].sort()).toEqual(ROUTES.map((r) => r.path).sort());
    expect(Object.keys(PAGE_GROUPS).sort()).toEqual(ROUTES.map((r) => r.path).sort());
  });

  for (const route of ROUTES) {
    it(`${route.path} loads exactly the groups its layout, page and dialogs read`, () => {
      const page = pageFiles().get(route.path)!;
      const read = new Set([
        ...groupsReached(page, NOT_A_PAGE),
        ...groupsReached(LAYOUT_FILES[route.layout], NOT_A_PAGE),
      ]);
      expect(minusBoot(routeGroups(route))).toEqual(minusBoot(read));
    });
  }

  it('each layout names exactly the groups it reads itself', () => {
    for (const [layout, file] of Object.entries(LAYOUT_FILES))
      expect(minusBoot(LAYOUT_GROUPS[layout as keyof typeof LAYOUT_FILES]), layout).toEqual(
        minusBoot(groupsReached(file, NOT_A_PAGE)),
      );
  });

  it('the start-up loads exactly what renders before any page: client, toasts, modals, 404', () => {
    // main.tsx reaches App and through it the routes' pages lazily; those are the routes' own.
    const pages = [...pageFiles().values()];
    const layouts = Object.values(LAYOUT_FILES).filter((f) => !f.includes('Auth') && !f.includes('Empty'));
    const read = groupsReached('main.tsx', [...NOT_A_PAGE, ...pages, ...layouts]);
    // AuthLayout and EmptyLayout render no text of their own.
    expect([...read].sort()).toEqual([...BOOT_GROUPS].sort());
  });

  it('the guide dialog and the update toast load their own groups', () => {
    expect(minusBoot(GUIDE_GROUPS)).toEqual(minusBoot(groupsReached(SELF_LOADING[0], ['views/routes.tsx'])));
    expect(minusBoot(groupsReached(SELF_LOADING[1], ['views/routes.tsx']))).toEqual(['shell']);
    // main.tsx hands the update toast translation functions built after loading `shell`.
    expect(fs.readFileSync('src/main.tsx', 'utf8')).toMatch(
      /import\('\.\/views\/shell\/pwa'\), loadGroups\(locale, \['shell'\]\)/,
    );
  });
});
