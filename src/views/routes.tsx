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
  { path: '/login', layout: 'auth', public: true, component: lazy(() => import('./auth/LoginPage')) },
  {
    path: '/invitations',
    layout: 'auth',
    public: true,
    component: lazy(() => import('./auth/InvitationsPage')),
  },
  { path: '/register', layout: 'auth', public: true, component: lazy(() => import('./auth/RegisterPage')) },

  { path: '/profile', layout: 'main', component: lazy(() => import('./profile/ProfilePage')) },
  { path: '/demo-researchers', layout: 'main', component: lazy(() => import('./users/DemoResearchersPage')) },
  { path: '/researchers', layout: 'main', component: lazy(() => import('./users/ResearchersPage')) },
  { path: '/issuers', layout: 'main', component: lazy(() => import('./users/IssuersPage')) },
  { path: '/moderators', layout: 'main', component: lazy(() => import('./users/ModeratorsPage')) },
  { path: '/games', layout: 'main', component: lazy(() => import('./games/GamesPage')) },
  { path: '/calculator', layout: 'main', component: lazy(() => import('./pricing/CalculatorPage')) },
  { path: '/tariffs', layout: 'main', component: lazy(() => import('./pricing/TariffsPage')) },
  { path: '/projects', layout: 'main', component: lazy(() => import('./projects/ProjectsPage')) },
  { path: '/reports', layout: 'main', component: lazy(() => import('./reports/ReportsPage')) },
  { path: '/history', layout: 'main', component: lazy(() => import('./history/HistoryPage')) },
  { path: '/report', layout: 'main', component: lazy(() => import('./reports/ReportPage')) },

  { path: '/project', layout: 'editor', component: EditorRoute },
];
