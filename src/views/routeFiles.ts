import type { LayoutName } from './routes';

// Each route's page module and lazily loaded layout, as files of the source tree: the server reads
// them against Vite's build manifest to name, in the HTML it serves for the route, the chunks the
// start-up will ask for (issue 25, Lighthouse on the signed-in pages). Kept beside routes.tsx, whose
// lazy imports must stay literal for the bundler; tests/unit/route-files.test.ts fails when the two
// disagree. Plain data, no React: the server imports it.

export interface RouteFiles {
  layout: LayoutName;
  /** The page's module. */
  page: string;
  /** Reachable without signing in (the sign-in's actor is then not asked for at start-up). */
  public?: boolean;
}

/** The main layout's module (the other layouts are in the start-up chunk). */
export const MAIN_LAYOUT_FILE = 'src/views/layouts/MainLayout.tsx';
/** The sign-in actor's module, loaded by the start-up when credentials are stored. */
export const AUTH_ACTOR_FILE = 'src/views/auth/startAuth.ts';

const v = (file: string) => `src/views/${file}.tsx`;

export const ROUTE_FILES: Record<string, RouteFiles> = {
  '/login': { layout: 'auth', page: v('auth/LoginPage'), public: true },
  '/invitations': { layout: 'auth', page: v('auth/InvitationsPage'), public: true },
  '/register': { layout: 'auth', page: v('auth/RegisterPage'), public: true },
  '/profile': { layout: 'main', page: v('profile/ProfilePage') },
  '/demo-researchers': { layout: 'main', page: v('users/DemoResearchersPage') },
  '/researchers': { layout: 'main', page: v('users/ResearchersPage') },
  '/issuers': { layout: 'main', page: v('users/IssuersPage') },
  '/moderators': { layout: 'main', page: v('users/ModeratorsPage') },
  '/games': { layout: 'main', page: v('games/GamesPage') },
  '/calculator': { layout: 'main', page: v('pricing/CalculatorPage') },
  '/tariffs': { layout: 'main', page: v('pricing/TariffsPage') },
  '/projects': { layout: 'main', page: v('projects/ProjectsPage') },
  '/reports': { layout: 'main', page: v('reports/ReportsPage') },
  '/history': { layout: 'main', page: v('history/HistoryPage') },
  '/report': { layout: 'main', page: v('reports/ReportPage') },
  '/project': { layout: 'editor', page: v('editor/EditorPage') },
};
