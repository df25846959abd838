import { Workbox } from 'workbox-window';
import type { TranslationFunctions } from '../../i18n/i18n-types';

// Registers the service worker (vite-plugin-pwa, generateSW) through workbox-window. A new version
// waits until the user agrees: an "update available" toast with Reload tells the waiting worker to
// take over, and the page reloads once it controls the page. Loaded after the app has mounted; the
// toast itself (react-hot-toast) loads only when an update waits (issue 25).

export const UPDATE_TOAST_ID = 'pwa-update';

export function registerServiceWorker(LL: TranslationFunctions): void {
  // MODE, not DEV: DEV follows NODE_ENV, which the e2e build runs under as "test".
  if (!('serviceWorker' in navigator) || import.meta.env.MODE === 'development') return;
  const wb = new Workbox('/sw.js', { scope: '/' });

  const reload = () => {
    wb.addEventListener('controlling', () => window.location.reload());
    wb.messageSkipWaiting();
  };

  wb.addEventListener('waiting', () => {
    void import('./pwaToast').then(
      (m) => m.showUpdateToast(LL, reload),
      () => {},
    );
  });

  void wb.register().catch(() => {
    /* no service worker (private mode, blocked): the app simply works online only */
  });
}
