import { Suspense, type ComponentType, type ReactNode } from 'react';
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { ROUTES, type LayoutName } from './routes';
import { useIsAuthenticated } from './auth/AuthProvider';
import AuthLayout from './layouts/AuthLayout';
import MainLayout from './layouts/MainLayout';
import EditorLayout from './layouts/EditorLayout';
import EmptyLayout from './layouts/EmptyLayout';
import NotFoundPage from './ui/NotFoundPage';
import { LoadingScreen } from './ui/LoadingScreen';

const LAYOUTS: Record<LayoutName, ComponentType<{ children: ReactNode }>> = {
  auth: AuthLayout,
  main: MainLayout,
  editor: EditorLayout,
  empty: EmptyLayout,
};

/** Sends a signed-out visitor to /login, remembering the full path they asked for. */
function Guard({ children }: { children: ReactNode }) {
  const authenticated = useIsAuthenticated();
  const [location] = useLocation();
  const search = useSearch();
  if (!authenticated) {
    const from = location + (search ? `?${search}` : '');
    return <Redirect to={`/login?redirectedFrom=${encodeURIComponent(from)}`} replace />;
  }
  return <>{children}</>;
}

export function App() {
  return (
    <Switch>
      <Route path="/">
        <Redirect to="/profile" replace />
      </Route>
      {ROUTES.map(({ path, layout, component: Page, public: isPublic }) => {
        const Layout = LAYOUTS[layout];
        const page = (
          <Layout>
            <Suspense fallback={<LoadingScreen />}>
              <Page />
            </Suspense>
          </Layout>
        );
        return (
          <Route key={path} path={path}>
            {isPublic ? page : <Guard>{page}</Guard>}
          </Route>
        );
      })}
      <Route>
        <NotFoundPage />
      </Route>
    </Switch>
  );
}
