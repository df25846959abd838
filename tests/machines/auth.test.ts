import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, createMachine, waitFor, type Actor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { authMachine } from '../../src/machines/auth';
import { configureClient } from '../../src/api/client';
import { readAuth } from '../../src/api/storage';
import { loadAllLocales } from '../../src/i18n/i18n-util.sync';
import { i18nObject } from '../../src/i18n/i18n-util';
import { Role } from '../../src/domain/roles';
import { startServer, TEST_PASSWORD, type TestServer } from '../server/helpers';
import { installStorage } from '../unit/memory-storage';

// Model-based test of signing in (spec section 4, "Auth"). The model below is what a user should
// experience; every path through it drives the real auth machine, its localStorage record and the
// real server, and checks each state it passes. A "reload" throws the actor away and starts a new
// one from storage, as a page reload does.

loadAllLocales();
const storage = installStorage();

const model = createMachine({
  id: 'signInModel',
  initial: 'signedOut',
  states: {
    signedOut: {
      on: {
        LOGIN_OK: 'signedIn',
        LOGIN_BAD: 'refused',
        RELOAD: 'signedOut',
      },
    },
    refused: {
      on: {
        LOGIN_OK: 'signedIn',
        RELOAD: 'signedOut',
      },
    },
    signedIn: {
      on: {
        RELOAD: 'signedIn',
        LOGOUT: 'signedOut',
        SESSION_ENDED_ELSEWHERE: 'signedOut',
      },
    },
  },
});

let server: TestServer;
let email: string;
let actor: Actor<typeof authMachine>;

/** A page load: a new actor from storage, once the server has confirmed or refused the session. */
async function boot() {
  actor?.stop();
  actor = createActor(authMachine).start();
  await settle();
}

async function settle() {
  await waitFor(
    actor,
    (s) =>
      !s.matches('signingIn') &&
      !s.matches('signingOut') &&
      !s.matches('restoring') &&
      !s.matches({ authenticated: 'verifying' }),
  );
}

beforeAll(async () => {
  server = await startServer();
  configureClient({ baseUrl: server.url, t: i18nObject('en'), locale: 'en', reload: () => {} });
  email = (await server.createUser({ role: Role.Researcher })).email;
});
afterAll(async () => {
  actor?.stop();
  await server.close();
});

const testModel = createTestModel(model);

describe('auth machine', () => {
  for (const path of testModel.getSimplePaths()) {
    it(path.description, async () => {
      storage.clear();
      await boot();
      await path.test({
        states: {
          signedOut: () => {
            expect(actor.getSnapshot().value).toBe('anonymous');
            expect(actor.getSnapshot().context.user).toBeNull();
            expect(readAuth()).toBeNull();
          },
          refused: () => {
            expect(actor.getSnapshot().value).toBe('anonymous');
            expect(actor.getSnapshot().context.error).toBe('Wrong credentials');
            expect(readAuth()).toBeNull();
          },
          signedIn: () => {
            const snap = actor.getSnapshot();
            expect(snap.value).toEqual({ authenticated: 'verified' });
            expect(snap.context.user?.email).toBe(email);
            const stored = readAuth();
            expect(stored?.userId).toBe(snap.context.user?.id);
            expect(stored?.accessToken).toBeTruthy();
            expect(stored?.refreshToken).toBeTruthy();
          },
        },
        events: {
          LOGIN_OK: async () => {
            actor.send({ type: 'auth.login', email, password: TEST_PASSWORD });
            await settle();
          },
          LOGIN_BAD: async () => {
            actor.send({ type: 'auth.login', email, password: 'not-it-123' });
            await settle();
          },
          RELOAD: boot,
          LOGOUT: async () => {
            actor.send({ type: 'auth.logout' });
            await settle();
          },
          SESSION_ENDED_ELSEWHERE: async () => {
            // An administrator deactivates the account, or it signs out on another device: the
            // stored tokens die on the server and the next start finds them refused.
            await server.app.db.updateTable('auth_families').set({ revoked_at: Date.now() }).execute();
            await boot();
          },
        },
      });
    });
  }

  it('covers every state and event of the model', () => {
    const paths = testModel.getSimplePaths();
    const events = new Set(paths.flatMap((p) => p.steps.map((s) => s.event.type)));
    expect([...events].sort()).toEqual(
      ['LOGIN_BAD', 'LOGIN_OK', 'LOGOUT', 'RELOAD', 'SESSION_ENDED_ELSEWHERE', 'xstate.init'].sort(),
    );
  });

  it('a damaged stored record counts as signed out', async () => {
    storage.setItem('auth', '{"accessToken": 1');
    await boot();
    expect(actor.getSnapshot().value).toBe('anonymous');
  });

  it('with the server unreachable, a stored session opens from the cached profile', async () => {
    storage.clear();
    await boot();
    actor.send({ type: 'auth.login', email, password: TEST_PASSWORD });
    await settle();
    configureClient({ baseUrl: 'http://127.0.0.1:1' });
    try {
      await boot();
      expect(actor.getSnapshot().matches('authenticated')).toBe(true);
      expect(actor.getSnapshot().context.offline).toBe(true);
      expect(readAuth()).not.toBeNull();
    } finally {
      configureClient({ baseUrl: server.url });
    }
  });

  it('a returning user opens from the cached profile at once; the server’s answer then replaces it', async () => {
    storage.clear();
    await boot();
    actor.send({ type: 'auth.login', email, password: TEST_PASSWORD });
    await settle();
    const id = actor.getSnapshot().context.user!.id;
    await server.app.db
      .updateTable('users')
      .set({ fullname: 'Renamed Elsewhere' })
      .where('id', '=', id)
      .execute();
    actor.stop();
    actor = createActor(authMachine).start();
    // Before any answer from the server: signed in, with the profile this device had.
    expect(actor.getSnapshot().value).toEqual({ authenticated: 'verifying' });
    expect(actor.getSnapshot().context.user?.email).toBe(email);
    expect(actor.getSnapshot().context.user?.fullname).not.toBe('Renamed Elsewhere');
    await settle();
    expect(actor.getSnapshot().value).toEqual({ authenticated: 'verified' });
    expect(actor.getSnapshot().context.user?.fullname).toBe('Renamed Elsewhere');
    expect(actor.getSnapshot().context.offline).toBe(false);
  });

  it('without a cached profile, waits for the server before saying who is signed in', async () => {
    storage.clear();
    await boot();
    actor.send({ type: 'auth.login', email, password: TEST_PASSWORD });
    await settle();
    storage.removeItem('auth-user');
    actor.stop();
    actor = createActor(authMachine).start();
    expect(actor.getSnapshot().value).toBe('restoring');
    await settle();
    expect(actor.getSnapshot().value).toEqual({ authenticated: 'verified' });
  });
});
