import { createElement, lazy, type ComponentType } from 'react';
import { fetchOpenedProject } from './editor/earlyFetch';

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

/** A lazily loaded page whose chunk the start-up can ask for before the app renders. */
function page(load: () => Promise<{ default: ComponentType }>): Pick<AppRoute, 'component' | 'load'> {
  return { component: lazy(load), load };
}

// Opening straight on /project (a reload, a link) fetches the editor's chunk while the language
// and the sign-in load, and renders it without suspending once it is there: a Suspense reveal that
// follows another waits up to 300 ms in React, which twice over was half of opening the editor.
let editorPage: ComponentType | null = null;
const loadEditorPage = () =>
  import('./editor/EditorPage').then((m) => {
    editorPage = m.default;
    return m;
  });
const LazyEditorPage = lazy(loadEditorPage);
function EditorRoute() {
  return editorPage ? createElement(editorPage) : createElement(LazyEditorPage);
}
if (typeof location !== 'undefined' && location.pathname === '/project') {
  // The project itself too: its fetch is the longest part of opening the editor.
  fetchOpenedProject();
  void loadEditorPage().catch(() => {});
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

  { path: '/project', layout: 'editor', component: EditorRoute },
];
