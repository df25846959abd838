import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers';
import { ACCESS, admittedRoles } from './access-table';
import { concretePath, roleName, roleUsers, routeKey, ROLE_IDS } from './matrix-harness';
import type { RoleId } from '../../src/domain/roles';
import { DEEP, sizeCases } from './fuzz-cases';

// Issue #17, item 11: the role × call matrix, generated from the route table (every route Fastify
// registered) and the access table (tests/server/access-table.ts, whose rows name roles or the
// permissions of src/domain/permissions.ts). Every route must have a row; every role and a caller
// not signed in call every route, and the role check must answer as the row says.

let server: TestServer;
let sessionFor: Awaited<ReturnType<typeof roleUsers>>;

beforeAll(async () => {
  server = await startServer();
  sessionFor = await roleUsers(server);
});
afterAll(async () => server?.close());

describe('role × call matrix', () => {
  it('has a row in the access table for every route, and no row without a route', async () => {
    const keys = server.app.routeTable.map(routeKey);
    const missing: string[] = [];
    for (const route of server.app.routeTable) {
      const key = routeKey(route);
      if (key in ACCESS) continue;
      // Suggest the row the route behaves like today; whoever adds it checks it against the spec.
      const admitted: string[] = [];
      let anonymous = 0;
      for (const role of [null, ...ROLE_IDS] as (RoleId | null)[]) {
        const res = await server.call(route.method, concretePath(route), {
          session: await sessionFor(role),
          body: route.method === 'GET' ? undefined : {},
        });
        if (role === null) anonymous = res.status;
        else if (res.status !== 401 && res.status !== 403) admitted.push(`Role.${roleName(role)}`);
      }
      const row =
        anonymous !== 401 && anonymous !== 403 ? `{ public: 'why' }` : `{ roles: [${admitted.join(', ')}] }`;
      missing.push(
        `add a row to tests/server/access-table.ts: '${key}': ${row} (as it behaves now; or { permission: '…' })`,
      );
    }
    expect(missing).toEqual([]);
    const stale = Object.keys(ACCESS).filter((k) => !keys.includes(k));
    expect(stale.map((k) => `tests/server/access-table.ts has a row for '${k}', which is no route`)).toEqual(
      [],
    );
  });

  it('answers every role and anonymous caller as the table says', async () => {
    const wrong: string[] = [];
    let calls = 0;
    for (const route of server.app.routeTable) {
      const access = ACCESS[routeKey(route)];
      if (!access) continue; // reported by the test above
      const admitted = admittedRoles(access);
      for (const role of [null, ...ROLE_IDS] as (RoleId | null)[]) {
        const session = await sessionFor(role);
        const res = await server.call(route.method, concretePath(route), {
          session,
          body: route.method === 'GET' ? undefined : {},
        });
        calls++;
        let expected: string;
        let ok: boolean;
        if (admitted === null) {
          expected = 'not 401/403 (public)';
          ok = res.status !== 401 && res.status !== 403;
        } else if (role === null) {
          expected = '401';
          ok = res.status === 401;
        } else if (admitted.includes(role)) {
          expected = 'not 401/403 (admitted)';
          ok = res.status !== 401 && res.status !== 403;
        } else {
          expected = '403';
          ok = res.status === 403;
        }
        if (res.status >= 500) ok = false;
        if (!ok) wrong.push(`${routeKey(route)} as ${roleName(role)}: ${res.status}, expected ${expected}`);
      }
    }
    console.log(
      `role × call matrix: ${server.app.routeTable.length} routes × ${ROLE_IDS.length + 1} callers = ${calls} calls, ${wrong.length} wrong`,
    );
    expect(wrong).toEqual([]);
  });

  // Issue 26: whoever calls, a body nested 50 000 deep is refused while it is parsed (before the
  // role check can even run), and a 1 MB string or a 100 000-element array as the body is a 4xx
  // with a message; never a 5xx. (The fuzzer sends them in every field, with the tables' checksums.)
  it('answers every caller’s huge or deeply nested body with a 4xx, never a 5xx', async () => {
    const wrong: string[] = [];
    let calls = 0;
    const bodies = sizeCases({}, []).slice(0, 4);
    for (const route of server.app.routeTable) {
      if (route.method === 'GET') continue;
      const access = ACCESS[routeKey(route)];
      const admitted = access ? admittedRoles(access) : null;
      for (const role of [null, ...ROLE_IDS] as (RoleId | null)[]) {
        // The deep bodies as every caller; the big ones signed out and as one admitted role.
        const big = role === null || role === (admitted ?? ROLE_IDS)[0];
        for (const c of big ? bodies : bodies.slice(0, 2)) {
          const res = await server.call(route.method, concretePath(route), {
            session: await sessionFor(role),
            rawBody: c.raw.text,
            headers: { 'content-type': c.raw.type },
          });
          calls++;
          const where = `${routeKey(route)} as ${roleName(role)}, ${c.label}`;
          const deep = c.label.includes(`${DEEP}-deep`);
          // Logging out takes any body (it reads none).
          const anyBody = routeKey(route) === 'POST /authentication/logout' && !deep;
          if (res.status >= 500 || (res.status < 400 && !anyBody)) wrong.push(`${where}: ${res.status}`);
          else if (deep && res.body?.code !== 'too-deep')
            wrong.push(`${where}: ${res.status} ${res.body?.code}`);
          else if (res.status >= 400 && typeof res.body?.message !== 'string')
            wrong.push(`${where}: no message`);
        }
      }
    }
    console.log(`role × call matrix, huge and deep bodies: ${calls} calls, ${wrong.length} wrong`);
    expect(wrong).toEqual([]);
  }, 240_000);
});
