import { toast } from 'react-hot-toast';
import type { Locales } from '../../i18n/i18n-types';
import { i18nObject } from '../../i18n/i18n-util';
import { kindClass } from '../ui/toast';
import { wantToastHost } from '../ui/toastHost';
import { loadGroups } from './locale';
import { UPDATE_TOAST_ID } from './pwa';

/** The service worker's "update available" toast with Reload (pwa.tsx), in the page's language. */
export async function showUpdateToast(locale: Locales, reload: () => void): Promise<void> {
  await loadGroups(locale, ['shell']);
  const LL = i18nObject(locale);
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
