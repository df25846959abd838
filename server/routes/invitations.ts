import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CAN_SIGN_IN, Role, UserStatus, type UserStatusId } from '../../src/domain/roles';
import { OrganizationType } from '../../src/domain/organizations';
import {
  ForgotPasswordBody,
  PasswordByTokenBody,
  RegisterBody,
  TokenBody,
  UserIdBody,
  type InvitationInfo,
} from '../../src/domain/users';
import { CAN_INVITE } from '../../src/domain/userStatus';
import { hashPassword } from '../auth/password';
import { revokeAllForUser } from '../auth/sessions';
import { audit } from '../http/audit';
import { requireRole } from '../http/context';
import { badRequest, conflict, HttpError, notFound } from '../http/errors';
import { hit, peek } from '../http/ratelimit';
import { parse } from '../http/validate';
import { mailLink } from '../mail/links';
import { checkToken, revokeTokens, useToken, type TokenCheck } from '../repos/invitations';
import { insertOrganization } from '../repos/organizations';
import { emailTaken, hasPassword, isUniqueViolation, searchTextOf } from '../repos/people';
import { findUserByEmail, findUserById } from '../repos/users';
import { emailExists } from './users';
import { createDemoExample } from '../repos/demo';

// Joining by mail: invitations (created by an administrator, resent, confirmed through the mailed
// link), self-registration of demo researchers, and setting a password with a mailed token (the
// invitation's or a "forgot password" one). Links expire after LINK_TTL_MS (7 days); a new
// invitation revokes the older ones; a link works once.

const HOUR = 3600_000;
/** Registrations and reset requests allowed per client address (and per email) in an hour. */
export const REGISTRATIONS_PER_IP_PER_HOUR = 10;
export const RESETS_PER_IP_PER_HOUR = 10;
export const RESETS_PER_EMAIL_PER_HOUR = 3;

const mailFailed = () => new HttpError(502, (t) => t.people.errors.mailFailed(), { code: 'mail-failed' });

/** Spec section 8's error for each way a mailed token can fail. */
function tokenError(reason: Exclude<TokenCheck, { ok: true }>['reason']): HttpError {
  switch (reason) {
    case 'malformed':
      return badRequest((t) => t.errors.invalidConfirmationLink(), { code: 'invalid-confirmation-link' });
    case 'unknown':
      return badRequest((t) => t.errors.invalidCode(), { code: 'invalid-code' });
    case 'expired':
      return new HttpError(410, (t) => t.errors.expiredCode(), { code: 'expired-code' });
    case 'used':
      return conflict((t) => t.errors.cantConfirm(), { code: 'cant-confirm' });
  }
}

const inactive = () => conflict((t) => t.errors.accountInactive(), { code: 'account-inactive' });

async function tooMany(req: FastifyRequest, limits: { key: string; max: number }[]) {
  const states = await Promise.all(limits.map((l) => peek(req.server.db, l.key, HOUR)));
  const blocked = states.filter((s, i) => s.count >= limits[i].max);
  if (blocked.length > 0) {
    const retryMs = Math.max(...blocked.map((b) => b.retryInMs));
    const minutes = Math.max(1, Math.ceil(retryMs / 60_000));
    throw new HttpError(429, (t) => t.errors.tooManyRequests({ minutes }), {
      code: 'too-many-attempts',
      headers: { 'retry-after': String(Math.ceil(retryMs / 1000)) },
    });
  }
  for (const l of limits) await hit(req.server.db, l.key, HOUR);
}

/** Statuses in which a mailed link may still be used, per purpose. */
function linkUsable(purpose: 'invitation' | 'reset', statusId: UserStatusId): boolean {
  if (purpose === 'reset') return CAN_SIGN_IN.includes(statusId);
  // An administrator may have activated the user before they used their invitation.
  return CAN_INVITE.includes(statusId) || statusId === UserStatus.Activated;
}

export default async function invitationRoutes(app: FastifyInstance) {
  const { db, config } = app;

  app.post('/invitations/resend', async (req) => {
    requireRole(req, Role.Administrator);
    const { id } = parse(UserIdBody, req.body);
    const user = await findUserById(db, id);
    if (!user) throw notFound();
    if (user.statusId === UserStatus.Deactivated) throw conflict((t) => t.people.errors.deactivated());
    const invitable =
      CAN_INVITE.includes(user.statusId) ||
      (user.statusId === UserStatus.Activated && !(await hasPassword(db, id)));
    if (!invitable) throw conflict((t) => t.people.errors.cannotInvite());

    const mail = await mailLink(
      req,
      { id, email: user.email, fullname: user.fullname, roleId: user.role.id, locale: user.locale },
      'invitation',
    );
    if (!mail.sent) throw mailFailed();
    await db.transaction().execute(async (trx) => {
      await revokeTokens(trx, id, { purpose: 'invitation', exceptId: mail.tokenId });
      if (CAN_INVITE.includes(user.statusId)) {
        await trx
          .updateTable('users')
          .set({ status_id: UserStatus.InvitationSent, updated_at: Date.now() })
          .where('id', '=', id)
          .execute();
      }
    });
    await audit(req, {
      chapter: 'invitations',
      message: 'people.log.invitationResent',
      params: { email: user.email },
    });
    return (await findUserById(db, id))!;
  });

  app.post('/invitations/confirm', async (req): Promise<InvitationInfo> => {
    const { token } = parse(TokenBody, req.body);
    const check = await checkToken(db, token);
    if (!check.ok) throw tokenError(check.reason);
    const user = await findUserById(db, check.userId);
    if (!user) throw tokenError('unknown');
    if (!linkUsable(check.purpose, user.statusId)) throw inactive();
    let statusId = user.statusId;
    if (
      check.purpose === 'invitation' &&
      (statusId === UserStatus.Created || statusId === UserStatus.InvitationSent)
    ) {
      statusId = UserStatus.InvitationAccepted;
      await db
        .updateTable('users')
        .set({ status_id: statusId, updated_at: Date.now() })
        .where('id', '=', user.id)
        .execute();
      await audit(req, {
        chapter: 'invitations',
        message: 'people.log.invitationConfirmed',
        actor: { id: user.id, email: user.email, organization: user.organization?.name },
      });
    }
    return { email: user.email, fullname: user.fullname, statusId, purpose: check.purpose };
  });

  app.post('/user/password-reset', async (req) => {
    const body = parse(PasswordByTokenBody, req.body);
    const check = await checkToken(db, body.token);
    if (!check.ok) throw tokenError(check.reason);
    const user = await findUserById(db, check.userId);
    if (!user) throw tokenError('unknown');
    if (!linkUsable(check.purpose, user.statusId)) throw inactive();
    const hash = await hashPassword(body.password, config.auth.scryptLogN);
    const now = Date.now();
    await db.transaction().execute(async (trx) => {
      // Two tabs submitting the same link: only the first one sets the password.
      if (!(await useToken(trx, check.id, now))) throw tokenError('used');
      if (check.purpose === 'invitation') await createDemoExample(trx, user, user.locale ?? req.locale, now);
      await trx
        .updateTable('users')
        .set({
          password_hash: hash,
          // Setting the password completes the invitation.
          status_id: check.purpose === 'invitation' ? UserStatus.Activated : user.statusId,
          locale: user.locale ?? req.locale,
          updated_at: now,
        })
        .where('id', '=', user.id)
        .execute();
      await revokeTokens(trx, user.id, {}, now);
      await revokeAllForUser(trx, user.id, undefined, now);
    });
    await audit(req, {
      chapter: 'auth',
      message: 'people.log.passwordSetByLink',
      actor: { id: user.id, email: user.email, organization: user.organization?.name },
    });
    return { ok: true, email: user.email };
  });

  // Self-registration (spec section 2, /register): a demo researcher with an organization of their
  // own, then the same mailed link as an invitation.
  app.post('/researcher', async (req, reply) => {
    await tooMany(req, [{ key: `register:ip:${req.ip}`, max: REGISTRATIONS_PER_IP_PER_HOUR }]);
    const body = parse(RegisterBody, req.body);
    if (await emailTaken(db, body.email)) throw emailExists();
    const now = Date.now();
    let created: { userId: number; orgId: number };
    try {
      created = await db.transaction().execute(async (trx) => {
        const orgId = await insertOrganization(trx, {
          name: `${body.fullname} (${body.email})`,
          type: OrganizationType.Individual,
          categoryId: null,
        });
        const row = await trx
          .insertInto('users')
          .values({
            email: body.email,
            fullname: body.fullname,
            role_id: Role.DemoResearcher,
            status_id: UserStatus.Created,
            organization_id: orgId,
            category_id: null,
            password_hash: null,
            locale: req.locale,
            created_at: now,
            updated_at: now,
            search_text: searchTextOf(body.email, body.fullname),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return { userId: row.id, orgId };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw emailExists();
      throw err;
    }
    const mail = await mailLink(
      req,
      {
        id: created.userId,
        email: body.email,
        fullname: body.fullname,
        roleId: Role.DemoResearcher,
        locale: req.locale,
      },
      'registration',
    );
    if (!mail.sent) {
      // Nobody could finish this account without the mail: undo it so the visitor can try again.
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('users').where('id', '=', created.userId).execute();
        await trx.deleteFrom('organizations').where('id', '=', created.orgId).execute();
      });
      throw mailFailed();
    }
    await db
      .updateTable('users')
      .set({ status_id: UserStatus.InvitationSent })
      .where('id', '=', created.userId)
      .execute();
    await audit(req, {
      chapter: 'registration',
      message: 'people.log.registered',
      actor: { id: created.userId, email: body.email, organization: `${body.fullname} (${body.email})` },
    });
    return reply.status(201).send({ ok: true, email: body.email });
  });

  // Not in the spec: "Forgot your password?" on the login page. The answer is the same whether or
  // not the account exists, so it tells nobody which addresses are registered.
  app.post('/user/password-forgot', async (req) => {
    const { email } = parse(ForgotPasswordBody, req.body);
    await tooMany(req, [
      { key: `reset:ip:${req.ip}`, max: RESETS_PER_IP_PER_HOUR },
      { key: `reset:email:${email}`, max: RESETS_PER_EMAIL_PER_HOUR },
    ]);
    const user = await findUserByEmail(db, email);
    if (user && CAN_SIGN_IN.includes(user.statusId)) {
      // Mailed after the answer, so a known address answers as fast as an unknown one.
      const send = async () => {
        const recipient = {
          id: user.id,
          email: user.email,
          fullname: user.fullname,
          roleId: user.role.id,
          locale: user.locale,
        };
        const mail = await mailLink(req, recipient, 'reset');
        if (!mail.sent) return;
        await revokeTokens(db, user.id, { purpose: 'reset', exceptId: mail.tokenId });
        await audit(req, {
          chapter: 'auth',
          message: 'people.log.passwordResetRequested',
          actor: { id: user.id, email: user.email, organization: user.organization?.name },
        });
      };
      send().catch((err: unknown) => req.log.error({ err }, 'password reset mail failed'));
    }
    return { ok: true };
  });
}
