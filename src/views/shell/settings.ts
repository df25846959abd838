import { useSyncExternalStore } from 'react';
import { readSettings, writeSettings, SETTINGS_KEY, type AppSettings } from '../../i18n/setup';

// The `app-settings` record (spec section 3) as a tiny store that components subscribe to: the
// sidebar's rail and hidden states change in one place and every reader re-renders. Another tab
// changing the record is followed too (the storage event).

type Listener = () => void;
const listeners = new Set<Listener>();
let snapshot: AppSettings = readSettings();

function emit() {
  snapshot = readSettings();
  for (const l of listeners) l();
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === SETTINGS_KEY || e.key === null) emit();
  });
}

export function updateSettings(patch: Partial<AppSettings>): void {
  writeSettings(patch);
  emit();
}

function subscribe(listener: Listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSettings(): AppSettings {
  return useSyncExternalStore(subscribe, () => snapshot);
}
