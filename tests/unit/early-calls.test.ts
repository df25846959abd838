import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, configureClient, onApiError } from '../../src/api/client';
import { arrivedEarly, callKey, earlyOr, forgetEarly, startEarly } from '../../src/api/early';
import { readAuth, writeAuth } from '../../src/api/storage';
import { loadAllLocales } from '../../src/i18n/i18n-util.sync';
import { i18nObject } from '../../src/i18n/i18n-util';
import { Role } from '../../src/domain/roles';
import { startServer, type TestServer } from '../server/helpers';
import { installStorage } from './memory-storage';

// A page's first call started by the start-up (api/early.ts, issue 25): taken once by the same
// key, rendered at once when it has arrived, asked again by the page when it failed, and quiet
// meanwhile: a refusal of the early call signs no one out and no listener hears it (the page's
// own call reports as always). Against our real server.

loadAllLocales();
const storage = installStorage();
let reloads = 0;
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  storage.clear();
  reloads = 0;
  configureClient({ baseUrl: server.url, t: i18nObject('en'), locale: 'en', reload: () => reloads++ });
});

describe('early calls', () => {
  it('keys a call by its path and query: empty values left out, keys in order', () => {
    expect(callKey('/projects', { sort: 'id', page: 1, status: '', search: undefined, order: 'desc' })).toBe(
      callKey('/projects', { order: 'desc', page: 1, sort: 'id' }),
    );
    expect(callKey('/users', { roles: [1, 4] })).toBe('/users?roles=1&roles=4');
    expect(callKey('/projects', { page: 1 })).not.toBe(callKey('/projects', { page: 2 }));
  });

  it('hands the early answer to the page once; a second page asks the server', async () => {
    const s = await server.as(Role.Researcher);
    writeAuth({ accessToken: s.accessToken, refreshToken: s.refreshToken, userId: s.user.id });
    const key = callKey('/user', { uid: s.user.id });
    startEarly(key, () => api.get('/user', { query: { uid: s.user.id }, quiet: true }));
    let asked = 0;
    const ask = () => {
      asked++;
      return api.get<{ id: number }>('/user', { query: { uid: s.user.id } });
    };
    expect((await earlyOr(key, ask)).id).toBe(s.user.id);
    expect(asked).toBe(0);
    expect((await earlyOr(key, ask)).id).toBe(s.user.id);
    expect(asked).toBe(1);
  });

  it('shows an arrived answer without consuming it until the page forgets it', async () => {
    const s = await server.as(Role.Researcher);
    writeAuth({ accessToken: s.accessToken, refreshToken: s.refreshToken, userId: s.user.id });
    const key = callKey('/user', { uid: s.user.id, n: 2 });
    let resolve!: () => void;
    const gate = new Promise<void>((r) => (resolve = r));
    startEarly(key, async () => {
      await gate;
      return api.get('/user', { query: { uid: s.user.id }, quiet: true });
    });
    expect(arrivedEarly(key), 'not before it has arrived').toBeUndefined();
    resolve();
    await vi.waitFor(() => expect(arrivedEarly<{ id: number }>(key)?.id).toBe(s.user.id));
    // Read again by a render that was thrown away and done again: still there.
    expect(arrivedEarly<{ id: number }>(key)?.id).toBe(s.user.id);
    forgetEarly(key);
    expect(arrivedEarly(key)).toBeUndefined();
  });

  it('drops an early answer the page did not take within 30 s', async () => {
    const s = await server.as(Role.Researcher);
    writeAuth({ accessToken: s.accessToken, refreshToken: s.refreshToken, userId: s.user.id });
    const key = callKey('/user', { uid: s.user.id, n: 3 });
    startEarly(key, () => api.get('/user', { query: { uid: s.user.id }, quiet: true }));
    await vi.waitFor(() => expect(arrivedEarly(key)).toBeDefined());
    const now = Date.now();
    const spy = vi.spyOn(Date, 'now').mockReturnValue(now + 31_000);
    try {
      expect(arrivedEarly(key)).toBeUndefined();
      let asked = 0;
      await earlyOr(key, async () => {
        asked++;
        return null;
      });
      expect(asked).toBe(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('a refused early call signs no one out and is not heard; the page asks again and reports as always', async () => {
    const a = await server.as(Role.Researcher);
    const b = await server.as(Role.Researcher);
    writeAuth({ accessToken: a.accessToken, refreshToken: a.refreshToken, userId: a.user.id });
    const heard: ApiError[] = [];
    const off = onApiError((e) => heard.push(e));
    try {
      const key = callKey('/user', { uid: b.user.id });
      startEarly(key, () => api.get('/user', { query: { uid: b.user.id }, quiet: true }));
      await new Promise((r) => setTimeout(r, 200));
      expect(readAuth(), 'the quiet refusal kept the sign-in').not.toBeNull();
      expect(reloads).toBe(0);
      expect(heard).toEqual([]);
      // The page's own call: the usual 403 handling (listeners, sign-out, reload).
      const err = await earlyOr(key, () => api.get('/user', { query: { uid: b.user.id } })).catch(
        (e: unknown) => e as ApiError,
      );
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(403);
      expect(heard).toHaveLength(1);
      expect(readAuth()).toBeNull();
      expect(reloads).toBe(1);
    } finally {
      off();
    }
  });
});
