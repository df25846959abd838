import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers';
import { OPS_ROUTE_DOCS, ROUTE_DOCS } from '../../server/openapi/registry';
import { routeKey } from '../../server/http/route-table';

// Issue #17, item 12: OpenAPI 3.1 at /api/v1/service/openapi.json, generated from the route table
// and the valibot schemas, a readable page at /api/v1/service/docs, and docs/api.md in step with both.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.close());

const apiMd = () => fs.readFileSync(path.resolve(__dirname, '../../docs/api.md'), 'utf8');

describe('OpenAPI document', () => {
  it('is served without signing in and lists every route of the route table', async () => {
    const res = await server.call('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: '/api/v1/service' }]);
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(
      ([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    // And the operations' calls at the site's root (server/ops), each with its own server "/".
    const ops = Object.keys(OPS_ROUTE_DOCS);
    expect(documented.sort()).toEqual([...server.app.routeTable.map(routeKey), ...ops].sort());
    expect(doc.paths['/readyz'].get.servers).toEqual([{ url: '/' }]);
    expect(Object.keys(doc.paths['/readyz'].get.responses)).toEqual(['200', '503']);
    // Each is a real route: the probes answer, /metrics exists once METRICS_TOKEN is set (metrics.test.ts).
    expect(ops).toEqual(['GET /healthz', 'GET /readyz', 'GET /metrics']);
    for (const p of ['/healthz', '/readyz']) expect((await fetch(server.url + p)).status).toBe(200);
  });

  it('has a summary and the schemas of every route, from the same valibot schemas the server parses with', async () => {
    const missing = server.app.routeTable
      .map(routeKey)
      .filter((k) => !ROUTE_DOCS[k])
      .map((k) => `add '${k}' to server/openapi/registry.ts (summary, tag, query and body schemas)`);
    expect(missing).toEqual([]);
    const doc = (await server.call('GET', '/openapi.json')).body;
    const create = doc.paths['/projects'].post;
    const body = create.requestBody.content['application/json'].schema;
    expect(body.type).toBe('object');
    expect(body.additionalProperties).toBe(false);
    expect(body.properties.organizationId).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 2147483647,
    });
    const pid = doc.paths['/project'].get.parameters.find((p: { name: string }) => p.name === 'pid');
    expect(pid).toMatchObject({ in: 'query', required: true });
    expect(doc.paths['/pictures/{file}'].get.parameters[0]).toMatchObject({ name: 'file', in: 'path' });
    expect(Object.keys(doc.paths['/picture'].post.requestBody.content)).toEqual(['multipart/form-data']);
  });

  it('renders a readable page with every operation and no script', async () => {
    const res = await server.call('GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = res.body as string;
    expect(html).not.toContain('<script');
    expect(html).toContain('Survey back-office API');
    for (const r of server.app.routeTable) expect(html).toContain(r.path.replace(/:(\w+)/g, '{$1}'));
  });
});

describe('docs/api.md', () => {
  it('points at the served document and the page', () => {
    const md = apiMd();
    expect(md).toContain('/api/v1/service/openapi.json');
    expect(md).toContain('/api/v1/service/docs');
  });

  it('lists exactly the routes of the route table', () => {
    // Rows start "| `METHOD /path`" (a query may follow the path: "`GET /user?uid`").
    const listed = [...apiMd().matchAll(/^\| `(GET|POST|PUT|DELETE|PATCH) ([^`?\s]+)[^`]*`/gm)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
    const routes = [...server.app.routeTable.map(routeKey), ...Object.keys(OPS_ROUTE_DOCS)];
    expect(
      routes.filter((k) => !listed.includes(k)).map((k) => `docs/api.md: add a row "| \`${k}\` | … |"`),
    ).toEqual([]);
    expect(
      listed.filter((k) => !routes.includes(k)).map((k) => `docs/api.md lists ${k}, which is no route`),
    ).toEqual([]);
  });
});
