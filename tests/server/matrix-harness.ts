import { openSession } from '../../server/auth/sessions';
import { routeKey, type RouteEntry } from '../../server/http/route-table';
import { Role, type RoleId } from '../../src/domain/roles';
import type { TestServer } from './helpers';

// Shared by the role × call matrix and the fuzzer: one user per role (each in an organization of its
// own) with a fresh session per call, opened straight in the database so that neither the sign-in
// rate limit nor a call that ends the session (logout, a password change) affects the next call.

export const ROLE_IDS: readonly RoleId[] = Object.values(Role);
export const roleName = (id: RoleId | null) =>
  id === null ? 'not signed in' : Object.entries(Role).find(([, v]) => v === id)![0];

export async function roleUsers(server: TestServer) {
  const users = new Map<RoleId, number>();
  for (const role of ROLE_IDS) {
    const org = await server.createOrganization();
    users.set(role, (await server.createUser({ role, organizationId: org })).id);
  }
  return async (role: RoleId | null) => {
    if (role === null) return undefined;
    const s = await openSession(server.app.db, users.get(role)!, server.config.auth);
    return { accessToken: s.accessToken, refreshToken: s.refreshToken };
  };
}

/** A concrete URL path for a route: path parameters become a harmless value. */
export const concretePath = (r: RouteEntry) => r.path.replace(/:(\w+)/g, 'x');

export { routeKey };
