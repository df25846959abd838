import { createContext, useContext, type ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import { useSelector } from '@xstate/react';
import type { authMachine } from '../../machines/auth';

// The auth actor is started before the app mounts (main.tsx) and handed down here; components read
// it with useSelector, never by copying its state.

type AuthActor = ActorRefFrom<typeof authMachine>;
const AuthActorContext = createContext<AuthActor | null>(null);

export function AuthProvider({ actor, children }: { actor: AuthActor; children: ReactNode }) {
  return <AuthActorContext.Provider value={actor}>{children}</AuthActorContext.Provider>;
}

export function useAuthActor(): AuthActor {
  const actor = useContext(AuthActorContext);
  if (!actor) throw new Error('useAuthActor outside AuthProvider');
  return actor;
}

export function useCurrentUser() {
  return useSelector(useAuthActor(), (s) => s.context.user);
}

export function useIsAuthenticated() {
  return useSelector(useAuthActor(), (s) => s.matches('authenticated'));
}
