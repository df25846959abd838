import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Db, Dialect } from '../db';
import type { User } from '../../src/domain/user';
import type { RoleId } from '../../src/domain/roles';
import { CAN_SIGN_IN } from '../../src/domain/roles';
import type { Locales, TranslationFunctions } from '../../src/i18n/i18n-types';
import { authenticate, revokeFamily } from '../auth/sessions';
import { SessionCache } from '../auth/session-cache';
import { findUserById } from '../repos/users';
import { forbidden, unauthorized } from './errors';
import { localeOf, translator } from './i18n';

// What every request carries: the caller's language and, when tokens were sent and are valid, the
// signed-in user. Routes ask for what they need with requireUser / requireRole.

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    dialect: Dialect;
    config: Config;
  }
  interface FastifyRequest {
    locale: Locales;
    t: TranslationFunctions;
    auth: { user: User; familyId: string } | null;
  }
}

export const AUTH_HEADER = 'x-auth-token';
export const REFRESH_HEADER = 'x-refresh-token';

function header(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' && value.length > 0 && value.length < 200 ? value : undefined;
}

export function registerRequestContext(app: FastifyInstance) {
  app.decorateRequest('locale', 'ru');
  app.decorateRequest('t', null as unknown as TranslationFunctions);
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (req) => {
    req.locale = localeOf(req);
    req.t = translator(req.locale);
  });
  // Verified sessions kept for a few seconds while nothing that could end them has changed
  // (server/auth/session-cache.ts): the epoch is read first, then the session verified. A read
  // wrapped in sessionRead (server/http/session-read.ts) reads the epoch in its own statement
  // instead: its cached session is trusted provisionally and the handler confirms it.
  const sessions = new SessionCache(app.db);
  app.decorateRequest('provisionalSession', null);

  async function verify(req: FastifyRequest, reply: FastifyReply, accessToken: string | undefined) {
    const epoch = accessToken ? await sessions.epoch() : null;
    if (accessToken && epoch !== null) {
      const hit = sessions.get(accessToken, epoch);
      if (hit) {
        req.auth = { user: hit.user, familyId: hit.familyId };
        return;
      }
    }
    const result = await authenticate(app.db, app.config.auth, accessToken, header(req, REFRESH_HEADER));
    if (!result.ok) return;
    const user = await findUserById(app.db, result.userId);
    if (!user || !CAN_SIGN_IN.includes(user.statusId)) {
      await revokeFamily(app.db, result.familyId);
      return;
    }
    req.auth = { user, familyId: result.familyId };
    if (accessToken && epoch !== null && result.expires)
      sessions.set(accessToken, epoch, {
        user,
        userId: user.id,
        familyId: result.familyId,
        accessExpiresAt: result.expires.access,
        familyExpiresAt: result.expires.family,
      });
    if (result.renewed) {
      reply.header(AUTH_HEADER, result.renewed.accessToken);
      reply.header(REFRESH_HEADER, result.renewed.refreshToken);
    }
  }

  app.addHook('preHandler', async (req, reply) => {
    if (!req.url.startsWith('/api/')) return;
    const accessToken = header(req, AUTH_HEADER);
    const cached =
      accessToken && req.routeOptions.config.sessionInStatement ? sessions.peek(accessToken) : null;
    if (accessToken && cached) {
      req.auth = { user: cached.user, familyId: cached.familyId };
      req.provisionalSession = {
        epoch: cached.epoch,
        readEpoch: () => sessions.epoch(),
        verify: () => {
          sessions.drop(accessToken);
          return verify(req, reply, accessToken);
        },
      };
      return;
    }
    await verify(req, reply, accessToken);
  });
}

export function requireUser(req: FastifyRequest): User {
  if (!req.auth) throw unauthorized();
  return req.auth.user;
}

export function requireRole(req: FastifyRequest, ...roles: RoleId[]): User {
  const user = requireUser(req);
  if (!roles.includes(user.role.id)) throw forbidden();
  return user;
}
