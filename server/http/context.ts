import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Db, Dialect } from '../db';
import type { DownloadThreads } from '../reports/download-threads';
import type { User } from '../../src/domain/user';
import type { RoleId } from '../../src/domain/roles';
import { CAN_SIGN_IN } from '../../src/domain/roles';
import type { Locales, TranslationFunctions } from '../../src/i18n/i18n-types';
import { authenticate, revokeFamily, type TokenPair } from '../auth/sessions';
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
    downloads: DownloadThreads;
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

  interface Verified {
    user: User;
    familyId: string;
    renewed: TokenPair | null;
    /** The access token itself was valid (no refresh token was needed). */
    byAccessToken: boolean;
  }

  /** The session the tokens open: from the cache under `epoch` when `cached`, else from the database. */
  async function verifyTokens(
    accessToken: string | undefined,
    refreshToken: string | undefined,
    epochRead: Promise<number> | null,
    cached: boolean,
  ): Promise<Verified | null> {
    const epoch = epochRead && (await epochRead);
    if (cached && accessToken && epoch !== null) {
      const hit = sessions.get(accessToken, epoch);
      if (hit) return { user: hit.user, familyId: hit.familyId, renewed: null, byAccessToken: true };
    }
    const result = await authenticate(app.db, app.config.auth, accessToken, refreshToken);
    if (!result.ok) return null;
    const user = await findUserById(app.db, result.userId);
    if (!user || !CAN_SIGN_IN.includes(user.statusId)) {
      await revokeFamily(app.db, result.familyId);
      return null;
    }
    if (accessToken && epoch !== null && result.expires)
      sessions.set(accessToken, epoch, {
        user,
        userId: user.id,
        familyId: result.familyId,
        accessExpiresAt: result.expires.access,
        familyExpiresAt: result.expires.family,
      });
    return { user, familyId: result.familyId, renewed: result.renewed, byAccessToken: !!result.expires };
  }

  // Calls with the same access token that share one epoch read (they arrived in the same turn of
  // the event loop, before it was sent) share one verification too: after a restart or an entry's
  // expiry, 100 calls in flight of one session made 100 verifications, about 400 statements.
  const verifying = new Map<string, { epochRead: Promise<number>; done: Promise<Verified | null> }>();

  /** Verifies the call's tokens: from the cache under the current epoch when `cached`, else afresh. */
  async function verify(
    req: FastifyRequest,
    reply: FastifyReply,
    accessToken: string | undefined,
    cached: boolean,
  ) {
    const refreshToken = header(req, REFRESH_HEADER);
    const epochRead = accessToken ? sessions.epoch() : null;
    let found: Verified | null = null;
    const shared = accessToken ? verifying.get(accessToken) : undefined;
    if (shared && shared.epochRead === epochRead) {
      found = await shared.done;
      // Only a valid access token's outcome is shared; anything else each call settles itself.
      if (!found?.byAccessToken) found = await verifyTokens(accessToken, refreshToken, epochRead, false);
    } else {
      const done = verifyTokens(accessToken, refreshToken, epochRead, cached);
      if (accessToken && epochRead) verifying.set(accessToken, { epochRead, done });
      try {
        found = await done;
      } finally {
        if (accessToken && verifying.get(accessToken)?.done === done) verifying.delete(accessToken);
      }
    }
    if (!found) return;
    req.auth = { user: found.user, familyId: found.familyId };
    if (found.renewed) {
      reply.header(AUTH_HEADER, found.renewed.accessToken);
      reply.header(REFRESH_HEADER, found.renewed.refreshToken);
    }
  }

  app.addHook('preHandler', async (req, reply) => {
    if (!req.url.startsWith('/api/')) return;
    const accessToken = header(req, AUTH_HEADER);
    const inStatement = req.routeOptions.config.sessionInStatement === true;
    const cached = accessToken && inStatement ? sessions.peek(accessToken) : null;
    if (accessToken && cached) {
      req.auth = { user: cached.user, familyId: cached.familyId };
      req.provisionalSession = {
        epoch: cached.epoch,
        readEpoch: () => sessions.epoch(),
        verify: () => {
          sessions.drop(accessToken);
          return verify(req, reply, accessToken, false);
        },
      };
      return;
    }
    // A read in statement found no entry, an expired one, or one this call is to renew: afresh.
    await verify(req, reply, accessToken, !inStatement);
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
