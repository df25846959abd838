import { toast } from 'react-hot-toast';
import { Workbox } from 'workbox-window';
import type { TranslationFunctions } from '../../i18n/i18n-types';
import { kindClass } from '../ui/toast';

// Registers the service worker (vite-plugin-pwa, generateSW) through workbox-window. A new version
// waits until the user agrees: an "update available" toast with Reload tells the waiting worker to
// take over, and the page reloads once it controls the page. Loaded after the app has mounted, so
// none of this weighs on the first paint of /login.

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
    toast(
      <span className="flex items-center gap-3">
        <span className="flex-1">{LL.shell.pwa.updateAvailable()}</span>
        <button
          type="button"
          onClick={reload}
          className="rounded bg-indigo-700 px-3 py-1 text-sm font-medium text-white hover:bg-indigo-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          {LL.shell.pwa.reload()}
        </button>
      </span>,
      { id: UPDATE_TOAST_ID, duration: Infinity, className: kindClass('info') },
    );
  });

  void wb.register().catch(() => {
    /* no service worker (private mode, blocked): the app simply works online only */
  });
}
