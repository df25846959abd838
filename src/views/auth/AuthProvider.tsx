import { useSyncExternalStore } from 'react';
import { currentAuthActor, subscribeAuth, type AuthActor, type AuthSnapshot } from './authStore';

// Components read the sign-in actor's state through these hooks, never by copying it. Until the
// actor is loaded (a signed-out visitor who has not started to sign in, authStore.ts) they answer
// what the machine's `anonymous` state would: no user, not authenticated. The hooks subscribe with
// React's useSyncExternalStore (authStore forwards every change of the actor), so the signed-out pages do not need @xstate/react; the selectors
// answer primitives or the context's own objects, so a snapshot read is stable between changes.

/** The actor; only on pages behind the sign-in (the guard has made sure it is loaded). */
export function useAuthActor(): AuthActor {
  const actor = useSyncExternalStore(subscribeAuth, currentAuthActor);
  if (!actor) throw new Error('useAuthActor before the sign-in actor was loaded');
  return actor;
}

/** A value of the actor's state, or `anonymous` while the actor is not loaded. */
export function useAuthState<T>(select: (s: AuthSnapshot) => T, anonymous: T): T {
  const read = () => {
    const actor = currentAuthActor();
    return actor ? select(actor.getSnapshot()) : anonymous;
  };
  return useSyncExternalStore(subscribeAuth, read);
}

export function useCurrentUser() {
  return useAuthState((s) => s.context.user, null);
}

/** The sign-in's step by name: `authenticated` whether or not the server has confirmed it yet. */
export function useAuthStep(): string {
  return useAuthState((s) => (typeof s.value === 'string' ? s.value : 'authenticated'), 'anonymous');
}

export function useIsAuthenticated() {
  return useAuthState((s) => s.matches('authenticated'), false);
}
