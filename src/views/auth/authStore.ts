import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { authMachine } from '../../machines/auth';
import { readAuth } from '../../api/storage';

// Where the sign-in actor lives (spec section 4, issue 25). The start-up reads the stored credentials
// in plain code first: with none, the visitor is anonymous and the signed-out pages render without
// xstate (≈ 15 KB gzip) or the machine; the actor is loaded when the visitor starts to sign in
// (the form is touched or sent). With stored credentials it is loaded and restored before the first
// paint, as before. Only types are imported here, so this module pulls no xstate into the start-up.

export type AuthActor = ActorRefFrom<typeof authMachine>;
export type AuthSnapshot = SnapshotFrom<typeof authMachine>;

let actor: AuthActor | null = null;
let loading: Promise<AuthActor> | null = null;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

/** Whether the stored credentials (tokens and user id) are present: the restore then needs the actor. */
export function hasStoredSignIn(): boolean {
  return readAuth() !== null;
}

/** Loads and starts the actor once; resolves when its restore has finished. */
export function loadAuth(): Promise<AuthActor> {
  if (loading) return loading;
  // The restore's call is already under way: the start-up's first module asked it (src/startEarly.ts).
  loading = import('./startAuth').then(
    async ({ startAuth }) => {
      const a = await startAuth();
      actor = a;
      a.subscribe(notify);
      notify();
      return a;
    },
    (err: unknown) => {
      loading = null; // a failed chunk load (offline) may be retried by the next attempt
      throw err;
    },
  );
  return loading;
}

/** The actor, or null while the visitor is anonymous and has not started to sign in. */
export function currentAuthActor(): AuthActor | null {
  return actor;
}

export function subscribeAuth(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
