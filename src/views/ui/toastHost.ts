import { useSyncExternalStore } from 'react';

// Whether the toast host (Toasts.tsx, with react-hot-toast) is wanted yet (issue 25). The signed-out
// pages show no toast until something happens, so the host loads with the first toast (toast.ts
// asks for it) or with a signed-in page (main.tsx); react-hot-toast's store keeps a toast raised
// meanwhile, and the host shows it once mounted.

let wanted = false;
const listeners = new Set<() => void>();

export function wantToastHost(): void {
  if (wanted) return;
  wanted = true;
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToastHostWanted(): boolean {
  return useSyncExternalStore(subscribe, () => wanted);
}
