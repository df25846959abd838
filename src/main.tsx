import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createActor, waitFor } from 'xstate';
import TypesafeI18n from './i18n/i18n-react';
import { authMachine } from './machines/auth';
import { AuthProvider } from './views/auth/AuthProvider';
import { App, findRoute, preloadRoute } from './views/App';
import { Toasts } from './views/ui/Toasts';
import { ModalHost } from './views/ui/modal';
import { GuideDialog } from './views/shell/guide';
import { loadGroups, setupBootLocale } from './views/shell/locale';
import { routeGroups } from './views/localeGroups';
import { readSettings } from './i18n/setup';
import { i18nObject } from './i18n/i18n-util';
import './styles.css';

// Start-up (spec section 1): the app mounts on #root only after the setup step has finished: the
// language is loaded (the start-up's dictionary groups; the page's own are fetched beside) and
// the stored sign-in has been restored (or found missing).
async function start() {
  // The stored sign-in is checked beside the language's load, not after it: its call needs only the
  // locale's name (Accept-Language, which the client knows from the start), and a failed restore
  // shows no message.
  const auth = createActor(authMachine).start();
  // The opened page's chunks and dictionary groups, fetched beside the start-up's own (LocaleGroups
  // in App then finds them loaded and renders at once: a Suspense reveal costs up to 300 ms).
  const route = findRoute(location.pathname);
  if (route) {
    preloadRoute(route);
    loadGroups(readSettings().locale, routeGroups(route)).catch(() => {});
  }
  const { locale, LL } = await setupBootLocale();
  await waitFor(auth, (s) => !s.matches('restoring'));
  document.title = LL.common.appName();
  document.getElementById('boot')?.remove();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <TypesafeI18n locale={locale}>
        <AuthProvider actor={auth}>
          <App />
          <ModalHost />
          <GuideDialog />
          <Toasts />
        </AuthProvider>
      </TypesafeI18n>
    </StrictMode>,
  );
  // The service worker (offline shell, update prompt) is wired after the first paint, in its own chunk.
  // Its update toast's texts are in the `shell` group, which /login does not load: asked for with it.
  void Promise.all([import('./views/shell/pwa'), loadGroups(locale, ['shell'])]).then(
    ([m]) => m.registerServiceWorker(i18nObject(locale)),
    () => {},
  );
}

void start();
