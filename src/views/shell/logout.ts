import type { ActorRefFrom } from 'xstate';
import type { authMachine } from '../../machines/auth';
import { clearModals } from '../ui/modal';
import { notify } from '../ui/toast';

/** Signs out and drops what belonged to the session on screen: open dialogs and toasts. */
export function signOutEverywhereInTab(actor: ActorRefFrom<typeof authMachine>): void {
  clearModals();
  notify.dismiss();
  actor.send({ type: 'auth.logout' });
}
