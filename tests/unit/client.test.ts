import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api, ApiError, configureClient, loginCall, onApiError } from '../../src/api/client';
import { readAuth, writeAuth } from '../../src/api/storage';
import { loadAllLocales } from '../../src/i18n/i18n-util.sync';
import { i18nObject } from '../../src/i18n/i18n-util';
import { Role } from '../../src/domain/roles';
import { startServer, TEST_PASSWORD, type TestServer } from '../server/helpers';
import { installStorage } from './memory-storage';

// The error rules of spec section 8, exercised against our real server. A tiny fixture server
// stands in only for answers ours never gives (no message field, a numeric content code, plain
// text), since the client must handle any server's answer.

loadAllLocales();
const storage = installStorage();
let reloads = 0;

let server: TestServer;
let fixture: http.Server;
let fixtureUrl: string;

beforeAll(async () => {
  server = await startServer();
  fixture = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    if (url.pathname.endsWith('/no-message')) return send(502, 'application/json', '{"error":"gateway"}');
    if (url.pathname.endsWith('/coded'))
      return send(400, 'application/json', '{"message":"raw server text","code":40501}');
    if (url.pathname.endsWith('/text')) return send(200, 'text/plain', 'hello');
    if (url.pathname.endsWith('/binary')) return send(200, 'application/octet-stream', 'BIN');
    if (url.pathname.endsWith('/slow')) {
      // Headers and the start of a list now, the rest much later: a body still arriving.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[{"id":1}');
      const timer = setTimeout(() => res.end(']'), 5_000);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    if (url.pathname.endsWith('/echo'))
      return send(200, 'application/json', JSON.stringify({ url: req.url, headers: req.headers }));
    return send(500, 'text/html', '<h1>boom</h1>');
  });
  await new Promise<void>((r) => fixture.listen(0, '127.0.0.1', r));
  fixtureUrl = `http://127.0.0.1:${(fixture.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server.close();
  fixture.close();
});

beforeEach(() => {
  storage.clear();
  reloads = 0;
  configureClient({ baseUrl: server.url, t: i18nObject('en'), locale: 'en', reload: () => reloads++ });
});

async function caught(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected the call to fail');
}

describe('the HTTP client', () => {
  it('signs calls with the stored tokens and stores renewed ones from the response headers', async () => {
    const s = await server.as(Role.Researcher);
    writeAuth({ accessToken: s.accessToken, refreshToken: s.refreshToken, userId: s.user.id });
    const { tokenHash } = await import('../../server/auth/sessions');
    await server.app.db
      .updateTable('auth_tokens')
      .set({ access_expires_at: 0 })
      .where('access_hash', '=', tokenHash(s.accessToken))
      .execute();
    const user = await api.get<{ email: string }>('/user', { query: { uid: s.user.id } });
    expect(user.email).toBe(s.user.email);
    const stored = readAuth()!;
    expect(stored.accessToken).not.toBe(s.accessToken);
    expect(stored.userId).toBe(s.user.id);
    // The renewed pair is the one that works now.
    expect((await api.get<{ id: number }>('/user', { query: { uid: s.user.id } })).id).toBe(s.user.id);
  });

  it('uses the response message for a failed call and notifies every listener', async () => {
    const heard: ApiError[] = [];
    const off = onApiError((e) => heard.push(e));
    const off2 = onApiError(() => {
      throw new Error('a broken listener');
    });
    const err = await caught(api.get('/no-such-call'));
    off();
    off2();
    expect(err).toBeInstanceOf(ApiError);
    expect(err.name).toBe('ApiError');
    expect(err.status).toBe(404);
    expect(err.message).toBe('Not found');
    expect(err.response?.status).toBe(404);
    expect(heard).toEqual([err]);
  });

  it("says 'Server response status: {status}' when the answer has no message", async () => {
    configureClient({ baseUrl: fixtureUrl });
    expect((await caught(api.get('/no-message'))).message).toBe('Server response status: 502');
    expect((await caught(api.get('/html'))).message).toBe('Server response status: 500');
  });

  it('replaces the message of a numeric code with its translated text', async () => {
    configureClient({ baseUrl: fixtureUrl });
    const err = await caught(api.post('/coded', {}));
    expect(err.code).toBe(40501);
    expect(err.message).toBe('Empty questionnaire');
    configureClient({ t: i18nObject('ru') });
    expect((await caught(api.post('/coded', {}))).message).toBe('Пустая анкета');
  });

  it('parses answers by content type: JSON, text, binary', async () => {
    configureClient({ baseUrl: fixtureUrl });
    expect(await api.get('/text')).toBe('hello');
    const blob = await api.get<Blob>('/binary');
    expect(blob).toBeInstanceOf(Blob);
    expect(await blob.text()).toBe('BIN');
    const echo = await api.get<{ url: string; headers: Record<string, string> }>('/echo', {
      query: { roles: [1, 4], tpid: '', q: 'a b' },
    });
    expect(echo.url).toBe('/api/v1/service/echo?roles=1&roles=4&q=a+b');
    expect(echo.headers['accept-language']).toBe('en');
  });

  it('sends JSON with its header and a multipart body as it is', async () => {
    configureClient({ baseUrl: fixtureUrl });
    const json = await api.post<{ headers: Record<string, string> }>('/echo', { a: 1 });
    expect(json.headers['content-type']).toBe('application/json');
    const form = new FormData();
    form.append('images', new Blob(['x']), 'x.png');
    const multi = await api.post<{ headers: Record<string, string> }>('/echo', form);
    expect(multi.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  });

  it('a call aborted while its body arrives rejects as an abort, never resolves to null', async () => {
    configureClient({ baseUrl: fixtureUrl });
    const controller = new AbortController();
    const pending = api.list('/slow', { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('a network failure is an ApiError with status 0, and listeners hear it', async () => {
    configureClient({ baseUrl: 'http://127.0.0.1:1' });
    const heard: ApiError[] = [];
    const off = onApiError((e) => heard.push(e));
    const err = await caught(api.get('/user'));
    off();
    expect(err.status).toBe(0);
    expect(err.isNetwork).toBe(true);
    expect(err.message).toBe('No connection to the server');
    expect(heard).toHaveLength(1);
  });

  it('on 401 or 403 with stored credentials clears them and reloads the page', async () => {
    const a = await server.as(Role.Researcher);
    const b = await server.as(Role.Researcher);
    writeAuth({ accessToken: a.accessToken, refreshToken: a.refreshToken, userId: a.user.id });
    const err = await caught(api.get('/user', { query: { uid: b.user.id } }));
    expect(err.status).toBe(403);
    expect(readAuth()).toBeNull();
    expect(reloads).toBe(1);

    writeAuth({ accessToken: 'stale', refreshToken: 'stale', userId: a.user.id });
    expect((await caught(api.get('/user', { query: { uid: a.user.id } }))).status).toBe(401);
    expect(readAuth()).toBeNull();
    expect(reloads).toBe(2);
  });

  it('on 401 without stored credentials neither clears nor reloads', async () => {
    expect((await caught(api.get('/user', { query: { uid: 1 } }))).status).toBe(401);
    expect(reloads).toBe(0);
  });

  it('login returns the user and the tokens; a refused login says Wrong credentials', async () => {
    const u = await server.createUser({ role: Role.Issuer });
    const ok = await loginCall(u.email, TEST_PASSWORD);
    expect(ok.user.id).toBe(u.id);
    expect(ok.accessToken).toBeTruthy();
    const err = await caught(loginCall(u.email, 'wrong-password1'));
    expect(err.status).toBe(401);
    expect(err.message).toBe('Wrong credentials');
  });
});
