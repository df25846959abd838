import type { FastifyInstance } from 'fastify';
import { LoginBody, PasswordSetBody } from '../../src/domain/validation';
import { UserQuery } from '../../src/domain/users';
import { CAN_SIGN_IN, Role, type UserStatusId } from '../../src/domain/roles';
import { hashPassword, verifyDummy, verifyPassword } from '../auth/password';
import { openSession, revokeAllForUser, revokeFamily } from '../auth/sessions';
import { audit } from '../http/audit';
import { AUTH_HEADER, REFRESH_HEADER, requireUser } from '../http/context';
import { forbidden, HttpError, notFound, unauthorized } from '../http/errors';
import { hit, peek, reset } from '../http/ratelimit';
import { parse } from '../http/validate';
import { findUserById } from '../repos/users';

const HOUR = 3600_000;

// Signing in and out, reading a user, changing a password.
export default async function sessionRoutes(app: FastifyInstance) {
  const { db, config } = app;

  app.post('/authentication/login', async (req, reply) => {
    const body = parse(LoginBody, req.body);
    // Keys are built from the normalized email and the client address only, so neither the path's
    // spelling, a query string nor extra body fields give an attacker a fresh counter.
    const accountKey = `login:account:${body.email}`;
    const ipKey = `login:ip:${req.ip}`;
    const [account, ip] = await Promise.all([peek(db, accountKey, HOUR), peek(db, ipKey, HOUR)]);
    const blocked = [
      account.count >= config.auth.loginPerAccountPerHour ? account : null,
      ip.count >= config.auth.loginPerIpPerHour ? ip : null,
    ].filter((x) => x !== null);
    if (blocked.length > 0) {
      const retryMs = Math.max(...blocked.map((b) => b.retryInMs));
      const minutes = Math.max(1, Math.ceil(retryMs / 60_000));
      throw new HttpError(429, (t) => t.errors.tooManyRequests({ minutes }), {
        code: 'too-many-attempts',
        headers: { 'retry-after': String(Math.ceil(retryMs / 1000)) },
      });
    }

    const row = await db
      .selectFrom('users')
      .select(['id', 'password_hash', 'status_id'])
      .where('email', '=', body.email)
      .executeTakeFirst();
    const ok = row?.password_hash
      ? await verifyPassword(body.password, row.password_hash)
      : await verifyDummy(body.password, config.auth.scryptLogN);
    if (!row || !ok) {
      await hit(db, accountKey, HOUR);
      await hit(db, ipKey, HOUR);
      throw unauthorized((t) => t.errors.wrongCredentials(), { code: 'wrong-credentials' });
    }
    if (!CAN_SIGN_IN.includes(row.status_id as UserStatusId)) {
      throw new HttpError(403, (t) => t.errors.accountInactive(), { code: 'account-inactive' });
    }
    await reset(db, accountKey);
    const session = await openSession(db, row.id, config.auth);
    const user = (await findUserById(db, row.id))!;
    req.auth = { user, familyId: session.familyId };
    await audit(req, { chapter: 'auth', message: 'shell.log.signedIn' });
    reply.header(AUTH_HEADER, session.accessToken).header(REFRESH_HEADER, session.refreshToken);
    // `id` repeats user.id for callers that read it at the top level of the body.
    return { id: user.id, user };
  });

  // Not in the spec's list: ends this sign-in on the server too, so a copied token dies with it.
  app.post('/authentication/logout', async (req, reply) => {
    if (req.auth) {
      await audit(req, { chapter: 'auth', message: 'shell.log.signedOut' });
      await revokeFamily(db, req.auth.familyId);
    }
    return reply.status(204).send();
  });

  app.get('/user', async (req) => {
    const me = requireUser(req);
    const { uid } = parse(UserQuery, req.query);
    if (uid !== me.id && me.role.id !== Role.Administrator) throw forbidden();
    const user = await findUserById(db, uid);
    if (!user) throw notFound();
    return user;
  });

  app.put('/user/password-reset', async (req) => {
    const me = requireUser(req);
    const body = parse(PasswordSetBody, req.body);
    if (body.userId !== me.id && me.role.id !== Role.Administrator) throw forbidden();
    const target = await findUserById(db, body.userId);
    if (!target) throw notFound();
    const hash = await hashPassword(body.password, config.auth.scryptLogN);
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ password_hash: hash, updated_at: Date.now() })
        .where('id', '=', target.id)
        .execute();
      // A new password ends every other sign-in of that user; one's own current session stays.
      await revokeAllForUser(trx, target.id, target.id === me.id ? req.auth!.familyId : undefined);
    });
    await audit(req, {
      chapter: target.id === me.id ? 'auth' : 'users',
      message: target.id === me.id ? 'shell.log.passwordChanged' : 'shell.log.passwordSetFor',
      params: { email: target.email },
    });
    return { ok: true };
  });

  // Public settings the client needs before sign-in (the sidebar's dashboards, the version).
  app.get('/app-config', async () => ({
    version: '0.3.10',
    analyticsUrl: config.analyticsUrl,
    statisticsUrl: config.statisticsUrl,
  }));
}
