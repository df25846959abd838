import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers';

// Serving the built SPA: history fallback for app paths, a year of caching for hashed assets,
// revalidation for everything else, compression, JSON 404s under /api, and a CSP that runs the
// page's own inline script (the editor's head start) by its hash and no other.

let server: TestServer;
let dist: string;
const INLINE = '(function(){window.headStart=1})()';

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(
    path.join(dist, 'index.html'),
    `<!doctype html><title>app</title><script>${INLINE}</script><script type="module" src="/assets/index-abc123.js"></script><div id="root"></div>`,
  );
  fs.writeFileSync(
    path.join(dist, 'assets', 'index-abc123.js'),
    `console.log(${JSON.stringify('x'.repeat(20_000))});`,
  );
  fs.writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  server = await startServer((c) => (c.staticDir = dist));
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

it('answers any app path with index.html, uncached', async () => {
  for (const p of ['/', '/login', '/projects', '/project?pid=3', '/no-such-page']) {
    const res = await fetch(server.url + p);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toContain('<div id="root">');
  }
});

it('caches hashed assets for a year and compresses them', async () => {
  const res = await fetch(`${server.url}/assets/index-abc123.js`, { headers: { 'accept-encoding': 'gzip' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(res.headers.get('content-encoding')).toBe('gzip');
  expect((await res.text()).length).toBeGreaterThan(20_000);
});

it('makes the service worker revalidate', async () => {
  const res = await fetch(`${server.url}/sw.js`);
  expect(res.headers.get('cache-control')).toBe('no-cache');
});

it('answers a missing file and an unknown API call with 404, not the app', async () => {
  expect((await fetch(`${server.url}/assets/missing.js`)).status).toBe(404);
  const api = await fetch(`${server.url}/api/v1/service/nothing-here`);
  expect(api.status).toBe(404);
  expect(await api.json()).toMatchObject({ message: expect.any(String) });
});

it('sends a strict content security policy', async () => {
  const res = await fetch(`${server.url}/login`);
  expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
});

it("runs the page's own inline script by its hash, and no other inline script", async () => {
  const csp = (await fetch(`${server.url}/project?pid=3`)).headers.get('content-security-policy') ?? '';
  const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
  const hash = crypto.createHash('sha256').update(INLINE, 'utf8').digest('base64');
  expect(scriptSrc).toContain(`'sha256-${hash}'`);
  expect(scriptSrc).toContain("'self'");
  expect(scriptSrc).not.toContain('unsafe-inline');
  // One hash: the module script with a src is allowed by 'self', not by a hash.
  expect(scriptSrc.match(/'sha256-/g)).toHaveLength(1);
});
