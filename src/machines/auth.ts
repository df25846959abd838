import { assign, fromPromise, setup } from 'xstate';
import type { User } from '../domain/user';
import { api, ApiError, loginCall } from '../api/client';
import { restoreCall } from '../api/restoreCall';
import { cacheUser, clearAuth, readAuth, readCachedUser, writeAuth } from '../api/storage';

// Who is signed in (spec section 4, "Auth"). At start the stored credentials are read: with both
// tokens and a user id the user is loaded and the app is authenticated. A failed login clears the
// stored credentials; logout removes them (and ends the session on the server).
//
// A returning user whose profile is cached on this device opens at once from it (`verifying`) while
// the server is asked, instead of waiting for that answer before the first paint (issue 25: a slow
// or unreachable server must not keep a reopened page blank; one round trip less before any
// signed-in page shows). The server still checks every call: its answer replaces the profile, a
// refusal signs out (as a refused restore always did), no answer keeps the cached one, marked offline.

export interface AuthContext {
  user: User | null;
  error: string | null;
  /** True when the user came from the offline cache because the server could not be reached. */
  offline: boolean;
}

export type AuthEvent =
  | { type: 'auth.login'; email: string; password: string }
  | { type: 'auth.logout' }
  | { type: 'auth.userUpdated'; user: User };

/** The stored sign-in's cached profile, to open with before the server has answered. */
export function cachedSession(): User | null {
  const stored = readAuth();
  return stored ? readCachedUser<User>(stored.userId) : null;
}

/** restoreSession's done event: named guards and actions see only the machine's own event types. */
type RestoreDone = { output: { user: User | null; offline: boolean } };

export const restoreSession = fromPromise<{ user: User | null; offline: boolean }>(async () => {
  const stored = readAuth();
  if (!stored) return { user: null, offline: false };
  try {
    const user = await restoreCall(stored.userId);
    cacheUser(user);
    return { user, offline: false };
  } catch (err) {
    // Offline: keep the session and show the last known profile; the server decides later.
    if (err instanceof ApiError && err.isNetwork) {
      const cached = readCachedUser<User>(stored.userId);
      if (cached) return { user: cached, offline: true };
    }
    clearAuth();
    return { user: null, offline: false };
  }
});

export const signIn = fromPromise<User, { email: string; password: string }>(async ({ input }) => {
  try {
    const { user, accessToken, refreshToken } = await loginCall(input.email, input.password);
    writeAuth({ accessToken, refreshToken, userId: user.id });
    cacheUser(user);
    return user;
  } catch (err) {
    clearAuth();
    throw err;
  }
});

export const signOut = fromPromise<void>(async () => {
  try {
    await api.post('/authentication/logout');
  } catch {
    /* the local sign-out happens whatever the server says */
  } finally {
    clearAuth();
  }
});

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
  },
  actors: { restoreSession, signIn, signOut },
  guards: {
    /** A restore's answer names a user: signed in (from the server, or the cache when offline). */
    restored: ({ event }) => (event as unknown as RestoreDone).output.user !== null,
  },
  actions: {
    clearError: assign({ error: null }),
    takeRestored: assign(({ event }) => {
      const { user, offline } = (event as unknown as RestoreDone).output;
      return { user, offline };
    }),
  },
}).createMachine({
  id: 'auth',
  context: { user: null, error: null, offline: false },
  initial: 'starting',
  states: {
    starting: {
      always: [
        {
          guard: () => cachedSession() !== null,
          target: 'authenticated.verifying',
          actions: assign({ user: () => cachedSession() }),
        },
        { target: 'restoring' },
      ],
    },
    restoring: {
      invoke: {
        src: 'restoreSession',
        onDone: [
          { guard: 'restored', target: 'authenticated', actions: 'takeRestored' },
          { target: 'anonymous' },
        ],
        onError: { target: 'anonymous' },
      },
    },
    anonymous: {
      on: {
        'auth.login': { target: 'signingIn', actions: 'clearError' },
      },
    },
    signingIn: {
      invoke: {
        src: 'signIn',
        input: ({ event }) => {
          if (event.type !== 'auth.login') return { email: '', password: '' };
          return { email: event.email, password: event.password };
        },
        onDone: {
          target: 'authenticated',
          actions: assign({ user: ({ event }) => event.output, offline: false }),
        },
        onError: {
          target: 'anonymous',
          actions: assign({
            user: null,
            error: ({ event }) => (event.error instanceof Error ? event.error.message : String(event.error)),
          }),
        },
      },
    },
    authenticated: {
      initial: 'verified',
      states: {
        verified: {},
        verifying: {
          invoke: {
            src: 'restoreSession',
            onDone: [
              { guard: 'restored', target: 'verified', actions: 'takeRestored' },
              { target: '#auth.anonymous', actions: assign({ user: null, offline: false }) },
            ],
            onError: { target: '#auth.anonymous', actions: assign({ user: null, offline: false }) },
          },
        },
      },
      on: {
        'auth.logout': { target: 'signingOut' },
        'auth.userUpdated': { actions: assign({ user: ({ event }) => event.user }) },
      },
    },
    signingOut: {
      invoke: {
        src: 'signOut',
        onDone: { target: 'anonymous', actions: assign({ user: null, error: null, offline: false }) },
        onError: { target: 'anonymous', actions: assign({ user: null, error: null, offline: false }) },
      },
    },
  },
});
