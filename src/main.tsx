// First: starts the stored sign-in's check and, on /project, the project's reads, before the rest
// of the start-up is evaluated.
import './startEarly';
import { lazy, startTransition, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import TypesafeI18n from './i18n/i18n-react';
import { useIsAuthenticated } from './views/auth/AuthProvider';
import { hasStoredSignIn, loadAuth } from './views/auth/authStore';
import { App, findRoute, preloadRoute } from './views/App';
import { useToastHostWanted } from './views/ui/toastHost';
import { loadGroups, setupBootLocale } from './views/shell/locale';
import { routeGroups } from './views/localeGroups';
import { startPageCalls, warmFormats } from './views/shell/earlyCalls';
import { readSettings } from './i18n/setup';
import { whenIdle } from './views/ui/idle';
import { afterPaint } from './views/ui/afterPaint';
import { i18nObject } from './i18n/i18n-util';
import './styles.css';

// Start-up (spec section 1): the app mounts on #root only after the setup step has finished: the
// language is loaded (the start-up's dictionary groups; the page's own are fetched beside) and
// the stored sign-in has been restored (or found missing).
// The modal queue and the guide (both XState actors) serve only the signed-in pages: their hosts
// load with the first of them. The toast host loads there too, or with the first toast (toastHost.ts).
const Toasts = lazy(() => import('./views/ui/Toasts').then((m) => ({ default: m.Toasts })));
const ModalHost = lazy(() => import('./views/ui/modal').then((m) => ({ default: m.ModalHost })));
const GuideDialog = lazy(() => import('./views/shell/guide').then((m) => ({ default: m.GuideDialog })));

function Hosts() {
  const signedIn = useIsAuthenticated();
  const toasts = useToastHostWanted() || signedIn;
  return (
    <Suspense fallback={null}>
      {signedIn && <ModalHost />}
      {signedIn && <GuideDialog />}
      {toasts && <Toasts />}
    </Suspense>
  );
}

async function start() {
  // The stored sign-in is checked beside the language's load, not after it: its call needs only the
  // locale's name (Accept-Language, which the client knows from the start), and a failed restore
  // shows no message. Spec section 4's check of the stored credentials runs first in plain code: with
  // none the visitor is anonymous and the sign-in actor (xstate) waits until they start to sign in
  // (authStore.ts).
  const restored = hasStoredSignIn() ? loadAuth() : null;
  // The opened page's chunks and dictionary groups, fetched beside the start-up's own; the first
  // render waits for them (LocaleGroups and the page then render at once, without suspending).
  const route = findRoute(location.pathname);
  let pageReady: Promise<unknown> | null = null;
  if (route) {
    const ready = Promise.allSettled([
      preloadRoute(route),
      loadGroups(readSettings().locale, routeGroups(route)),
    ]);
    // Waited for only when the page will show: a signed-out visitor on a signed-in page is sent
    // to the sign-in instead.
    if (route.public || restored) pageReady = ready;
    // Signed in: the page's first calls too (earlyCalls.ts), and the date formatter's first use
    // (≈ 30 ms of ICU data) while the network is still busy, not in the page's first render.
    if (restored) {
      startPageCalls(route);
      // The editor's first frame formats no date or number: there the warm-up (≈ 12 ms) would only
      // come before the outline, so it waits for the outline's paint (issue 34).
      if (route.path === '/project') afterPaint(() => warmFormats(readSettings().locale));
      else warmFormats(readSettings().locale);
    }
  }
  const { locale, LL } = await setupBootLocale();
  if (restored) await restored.catch(() => {});
  // The first render is the whole page, not a loading screen replaced by it a moment later (a
  // Suspense reveal waits up to 300 ms): the boot screen in index.html stays until then. A chunk
  // that fails (offline, no service worker yet) is asked for again by the page, which says so.
  await pageReady;
  document.title = LL.common.appName();
  document.getElementById('boot')?.remove();
  // Rendered as a transition: React then renders the page in slices of a few milliseconds, yielding
  // between them, rather than in one task (80 ms for /projects here, over 300 ms on a slow phone,
  // which Lighthouse counts as blocking time); only the commit is one task.
  const root = createRoot(document.getElementById('root')!);
  startTransition(() =>
    root.render(
      <StrictMode>
        <TypesafeI18n locale={locale}>
          <App />
          <Hosts />
        </TypesafeI18n>
      </StrictMode>,
    ),
  );
  // The service worker (offline shell, update prompt) is wired once the page has painted (the
  // document's first contentful paint is the page's: the boot screen has no content), loaded and
  // the browser is idle, in its own chunk: not a request beside the page's own while it is still
  // arriving, nor one more before its content paints (Lighthouse counts every request started before
  // the largest paint in that paint's time). Its update toast's texts are in the `shell` group (in
  // the base dictionary chunk, localeChunks.ts); the toast itself (react-hot-toast) loads when an
  // update waits.
  afterPaint(() =>
    whenLoadedAndIdle(() => {
      void Promise.all([import('./views/shell/pwa'), loadGroups(locale, ['shell'])]).then(
        ([m]) => m.registerServiceWorker(i18nObject(locale)),
        () => {},
      );
    }),
  );
}

function whenLoadedAndIdle(run: () => void) {
  const idle = () => void whenIdle(run, 2000);
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}

void start();
