import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createActor, waitFor } from 'xstate';
import TypesafeI18n from './i18n/i18n-react';
import { authMachine } from './machines/auth';
import { AuthProvider } from './views/auth/AuthProvider';
import { App } from './views/App';
import { Toasts } from './views/ui/Toasts';
import { ModalHost } from './views/ui/modal';
import { GuideDialog } from './views/shell/guide';
import { loadFullLocale, setupBootLocale } from './views/shell/locale';
import './styles.css';

// Start-up (spec section 1): the app mounts on #root only after the setup step has finished: the
// language is loaded (the groups start-up and /login need; the rest with the first other page) and
// the stored sign-in has been restored (or found missing).
async function start() {
  // The stored sign-in is checked beside the language's load, not after it: its call needs only the
  // locale's name (Accept-Language, which the client knows from the start), and a failed restore
  // shows no message.
  const auth = createActor(authMachine).start();
  const { locale, LL } = await setupBootLocale();
  // Every page but /login needs the whole dictionary: fetched beside the sign-in's restore.
  if (location.pathname !== '/login') loadFullLocale(locale).catch(() => {});
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
  void import('./views/shell/pwa').then((m) => m.registerServiceWorker(LL));
}

void start();
