import { createElement, lazy, type ComponentType } from 'react';

// Every route of spec section 2 with its layout. Pages load lazily so that /login stays small;
// the editor (and cytoscape with it) loads only on /project.

export type LayoutName = 'auth' | 'main' | 'editor' | 'empty';

export interface AppRoute {
  path: string;
  layout: LayoutName;
  /** Reachable without signing in. */
  public?: boolean;
  component: ComponentType;
  /** Starts fetching the page's chunk (the start-up does, for the page it opens on). */
  load?: () => Promise<unknown>;
}

/**
 * A component loaded on first use that renders without suspending once its chunk is there. React's
 * lazy() suspends on its first render even when the chunk has arrived (it asks for it again and
 * waits for that promise), and a Suspense reveal that follows another waits up to 300 ms: opening
 * straight on a page (a reload, a link) would show the loading screen, then the page a few hundred
 * milliseconds later. The start-up asks for the opened page's chunk before the first render.
 */
export function loadable<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): { component: ComponentType<P>; load: () => Promise<unknown> } {
  let loaded: ComponentType<P> | null = null;
  const fetchIt = () =>
    load().then((m) => {
      loaded = m.default;
      return m;
    });
  const Lazy = lazy(fetchIt);
  const component = (props: P) => createElement(loaded ?? Lazy, props);
  return { component, load: fetchIt };
}

/** A lazily loaded page whose chunk the start-up can ask for before the app renders. */
function page(load: () => Promise<{ default: ComponentType }>): Pick<AppRoute, 'component' | 'load'> {
  return loadable(load);
}

const editorPage = page(() => import('./editor/EditorPage'));
if (typeof location !== 'undefined' && location.pathname === '/project') {
  // The project's fetch, its local copy's read and the chunk's request itself are started before,
  // by the start-up's first module (src/startEarly.ts); this keeps the loaded page at hand.
  void editorPage.load!().catch(() => {});
}

export const ROUTES: AppRoute[] = [
  { path: '/login', layout: 'auth', public: true, ...page(() => import('./auth/LoginPage')) },
  {
    path: '/invitations',
    layout: 'auth',
    public: true,
    ...page(() => import('./auth/InvitationsPage')),
  },
  { path: '/register', layout: 'auth', public: true, ...page(() => import('./auth/RegisterPage')) },

  { path: '/profile', layout: 'main', ...page(() => import('./profile/ProfilePage')) },
  { path: '/demo-researchers', layout: 'main', ...page(() => import('./users/DemoResearchersPage')) },
  { path: '/researchers', layout: 'main', ...page(() => import('./users/ResearchersPage')) },
  { path: '/issuers', layout: 'main', ...page(() => import('./users/IssuersPage')) },
  { path: '/moderators', layout: 'main', ...page(() => import('./users/ModeratorsPage')) },
  { path: '/games', layout: 'main', ...page(() => import('./games/GamesPage')) },
  { path: '/calculator', layout: 'main', ...page(() => import('./pricing/CalculatorPage')) },
  { path: '/tariffs', layout: 'main', ...page(() => import('./pricing/TariffsPage')) },
  { path: '/projects', layout: 'main', ...page(() => import('./projects/ProjectsPage')) },
  { path: '/reports', layout: 'main', ...page(() => import('./reports/ReportsPage')) },
  { path: '/history', layout: 'main', ...page(() => import('./history/HistoryPage')) },
  { path: '/report', layout: 'main', ...page(() => import('./reports/ReportPage')) },
  { path: '/responses', layout: 'main', ...page(() => import('./responses/ResponsesPage')) },

  { path: '/project', layout: 'editor', ...editorPage },
];
