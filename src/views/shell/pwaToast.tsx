import { toast } from 'react-hot-toast';
import type { TranslationFunctions } from '../../i18n/i18n-types';
import { kindClass } from '../ui/toast';
import { wantToastHost } from '../ui/toastHost';
import { UPDATE_TOAST_ID } from './pwa';

/** The service worker's "update available" toast with Reload (pwa.tsx), in the page's language. */
export function showUpdateToast(LL: TranslationFunctions, reload: () => void): void {
  wantToastHost();
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
}
