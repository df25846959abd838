import { lazy, Suspense, useLayoutEffect, type ComponentType, type ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { loadable, ROUTES, type AppRoute, type LayoutName } from './routes';
import { useCurrentUser, useIsAuthenticated } from './auth/AuthProvider';
import { pageAllowed } from '../domain/menu';
import AuthLayout from './layouts/AuthLayout';
import EmptyLayout from './layouts/EmptyLayout';
import EditorLayout from './layouts/EditorLayout';
import NotFoundPage from './ui/NotFoundPage';
import { LoadingScreen } from './ui/LoadingScreen';
import { LocaleGroups } from './shell/LocaleGroups';
import { routeGroups } from './localeGroups';
import { removePicture } from '../db/pictureKeys';

// The router. The main and editor layouts load lazily (their menus and dialogs are not needed to
// sign in, which keeps /login small). The route is looked up here rather than through <Switch> so
// that moving between two pages of the same layout keeps the layout mounted: the sidebar keeps its
// scroll position and only the page area shows the loading bar.

const NotForRole = lazy(() => import('./ui/NotAvailablePage'));

const mainLayout = loadable(() => import('./layouts/MainLayout'));

/**
 * The chunks of the page the app opens on, asked for by the start-up beside the sign-in's restore:
 * otherwise each waits for the one before it to run (the app, then the layout, then the page), a
 * round trip each on a slow network. Settles when both have arrived or failed.
 */
export function preloadRoute(route: AppRoute): Promise<unknown> {
  return Promise.allSettled([route.layout === 'main' ? mainLayout.load() : null, route.load?.()]);
}

const LAYOUTS: Record<LayoutName, ComponentType<{ children: ReactNode }>> = {
  auth: AuthLayout,
  main: mainLayout.component,
  // A plain full-window box: not worth a chunk, and one lazy step less before the editor shows.
  editor: EditorLayout,
  empty: EmptyLayout,
};

/** Sends a signed-out visitor to /login, remembering the full path they asked for. */
function Guard({ open, children }: { open: boolean; children: ReactNode }) {
  const authenticated = useIsAuthenticated();
  const [location] = useLocation();
  const search = useSearch();
  if (!open && !authenticated) {
    const from = location + (search ? `?${search}` : '');
    return <Redirect to={`/login?redirectedFrom=${encodeURIComponent(from)}`} replace />;
  }
  return <>{children}</>;
}

export function findRoute(location: string): AppRoute | undefined {
  const path = location.length > 1 ? location.replace(/\/+$/, '') : location;
  return ROUTES.find((r) => r.path === path);
}

export function App() {
  const [location] = useLocation();
  const user = useCurrentUser();
  const route = findRoute(location);
  const allowed = !user || !route || pageAllowed(route.path, user.role.id);
  // The editor's opening picture (db/openingPicture.ts) stays only while the editor itself starts:
  // any other page (the sign-in after a lapsed session, a page not for this role) takes its place.
  useLayoutEffect(() => {
    if (route?.path !== '/project' || !allowed) removePicture();
  }, [route, allowed]);
  if (location === '/') return <Redirect to="/profile" replace />;
  if (!route) return <NotFoundPage />;
  const Layout = LAYOUTS[route.layout];
  const Page = allowed ? route.component : NotForRole;
  const view = (
    <Layout>
      <Suspense fallback={<LoadingScreen />}>
        <Page />
      </Suspense>
    </Layout>
  );
  return (
    <Guard open={!!route.public}>
      <Suspense fallback={<LoadingScreen />}>
        {/* Only the dictionary groups this route's layout, page and dialogs show (localeGroups.ts). */}
        <LocaleGroups need={routeGroups(route)}>{view}</LocaleGroups>
      </Suspense>
    </Guard>
  );
}
