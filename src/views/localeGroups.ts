import type { Group } from './shell/locale';
import type { AppRoute, LayoutName } from './routes';

// The dictionary groups each route shows beyond the start-up's (BOOT_GROUPS), so that a page loads
// only its own texts (issue 25). tests/unit/locale-groups.test.ts reads every page, its layout and
// the dialogs they open, and fails when a list here misses a group they read or names one they
// do not.

export const LAYOUT_GROUPS: Record<LayoutName, readonly Group[]> = {
  auth: [],
  main: ['shell'],
  editor: [],
  empty: [],
};

const PEOPLE: readonly Group[] = ['people', 'validation'];
const PRICING: readonly Group[] = ['pricing', 'validation'];
const AUTH: readonly Group[] = ['auth', 'validation'];

export const PAGE_GROUPS: Record<string, readonly Group[]> = {
  '/login': AUTH,
  '/invitations': AUTH,
  '/register': AUTH,
  '/profile': ['shell', 'validation'],
  '/demo-researchers': PEOPLE,
  '/researchers': PEOPLE,
  '/issuers': PEOPLE,
  '/moderators': PEOPLE,
  '/games': ['games', 'people', 'players', 'projects', 'validation'],
  '/calculator': PRICING,
  '/tariffs': PRICING,
  '/projects': ['projects', 'validation'],
  '/reports': ['projects', 'reports', 'validation'],
  '/history': ['people'],
  '/report': ['compare', 'projects', 'reports'],
  '/responses': ['responses', 'validation'],
  '/project': [
    'callbacks',
    'editor',
    'importer',
    'panels',
    'players',
    'projects',
    'translations',
    'validation',
    'versions',
  ],
};

/** Everything a route shows: its layout's groups and its page's. */
export function routeGroups(route: Pick<AppRoute, 'path' | 'layout'>): Group[] {
  return [...new Set([...LAYOUT_GROUPS[route.layout], ...(PAGE_GROUPS[route.path] ?? [])])];
}
