import type { FastifyInstance } from 'fastify';

// The route table: every API route as Fastify registered it, collected by an onRoute hook before
// any route module loads. The OpenAPI document, the fuzzer and the role × call matrix are generated
// from it, so a route added anywhere is documented, fuzzed and checked without another list to edit.

export interface RouteEntry {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** The path under the API prefix, e.g. "/project/clone" or "/pictures/:file". */
  path: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: readonly RouteEntry[];
  }
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']);

/** Starts collecting the routes registered under `prefix`; call before registering them. */
export function collectRoutes(app: FastifyInstance, prefix: string): void {
  const table: RouteEntry[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(`${prefix}/`)) return;
    for (const m of [route.method].flat()) {
      // HEAD routes are Fastify's own copies of the GET routes.
      if (!METHODS.has(m)) continue;
      const path = route.url.slice(prefix.length);
      if (!table.some((r) => r.method === m && r.path === path))
        table.push({ method: m as RouteEntry['method'], path });
    }
  });
}

/** "GET /project": how the access table, the fuzzer and the OpenAPI registry name a route. */
export const routeKey = (r: RouteEntry) => `${r.method} ${r.path}`;
