import { fromCallback } from 'xstate';
import { editorSetup, type EditorEvent } from './context';

// Whether the browser is on- or offline: the page shows it, and an offline save retries as soon
// as the network is back (besides its backoff).

/** Tells the machine when the browser goes on- or offline. */
export const networkWatcher = fromCallback<EditorEvent>(({ sendBack }) => {
  if (typeof window === 'undefined') return;
  const online = () => sendBack({ type: 'network.online' });
  const offline = () => sendBack({ type: 'network.offline' });
  window.addEventListener('online', online);
  window.addEventListener('offline', offline);
  return () => {
    window.removeEventListener('online', online);
    window.removeEventListener('offline', offline);
  };
});

export const setOnline = editorSetup.assign({ online: true });
export const setOffline = editorSetup.assign({ online: false });
