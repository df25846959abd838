import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Role, UserStatus, type RoleId, type UserStatusId } from '../../src/domain/roles';
import type { User } from '../../src/domain/user';
import {
  ROLE_KEYS,
  ROLES_NEEDING_ORGANIZATION,
  SELF_EDITABLE,
  UserCreateBody,
  UserIdBody,
  UserUpdateBody,
  UsersQuery,
} from '../../src/domain/users';
import { canChangeStatus, STATUS_KEYS } from '../../src/domain/userStatus';
import { I18N_PARAM_PREFIX } from '../../src/domain/history';
import { hashPassword } from '../auth/password';
import { revokeAllForUser } from '../auth/sessions';
import { audit } from '../http/audit';
import { requireRole, requireUser } from '../http/context';
import { sessionRead } from '../http/session-read';
import { PAGE_COMPRESSION } from '../http/compression';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import { parse } from '../http/validate';
import { mailLink } from '../mail/links';
import { revokeTokens } from '../repos/invitations';
import { categoryExists, findOrganization } from '../repos/organizations';
import {
  emailTaken,
  isForeignKeyViolation,
  isUniqueViolation,
  listUsers,
  searchTextOf,
} from '../repos/people';
import { findUserById } from '../repos/users';

// User administration (spec sections 3, 4, 7): only an Administrator lists, creates, changes and
// deletes users; a user may change their own full name and language. Every change that ends
// someone's access (deactivation, deletion) ends their sessions and mailed links at once.

export const emailExists = () =>
  conflict((t) => t.errors.emailExists(), { code: 'email-exists', field: 'email' });

const roleParam = (id: RoleId) => `${I18N_PARAM_PREFIX}people.role.${ROLE_KEYS[id]}`;
const statusParam = (id: UserStatusId) => `${I18N_PARAM_PREFIX}people.status.${STATUS_KEYS[id]}`;

/** 400 naming the field when an organization or category id points at nothing. */
export async function checkReferences(
  req: FastifyRequest,
  ids: { organizationId?: number | null; categoryId?: number | null },
) {
  const { db } = req.server;
  if (ids.organizationId != null && !(await findOrganization(db, ids.organizationId, req.locale))) {
    throw badRequest((t) => t.people.errors.organizationNotFound(), { field: 'organizationId' });
  }
  if (ids.categoryId != null && !(await categoryExists(db, ids.categoryId))) {
    throw badRequest((t) => t.people.errors.categoryNotFound(), { field: 'categoryId' });
  }
}

export default async function userRoutes(app: FastifyInstance) {
  const { db, config } = app;

  app.get('/users', {
    compress: PAGE_COMPRESSION,
    ...sessionRead(async (req, reply, probe) => {
      requireRole(req, Role.Administrator);
      const q = parse(UsersQuery, req.query);
      const page = await listUsers(db, q, probe);
      reply.header('x-total-count', String(page.total));
      return page.items;
    }),
  });

  app.post('/user', async (req, reply) => {
    requireRole(req, Role.Administrator);
    const body = parse(UserCreateBody, req.body);
    await checkReferences(req, body);
    if (await emailTaken(db, body.email)) throw emailExists();
    const roleId = body.roles[0];
    const passwordHash = body.password ? await hashPassword(body.password, config.auth.scryptLogN) : null;
    const now = Date.now();

    let id: number;
    try {
      const row = await db
        .insertInto('users')
        .values({
          email: body.email,
          fullname: body.fullname,
          role_id: roleId,
          // With a password the administrator hands the credentials over; no invitation is needed.
          status_id: passwordHash ? UserStatus.Activated : UserStatus.Created,
          organization_id: body.organizationId,
          category_id: body.categoryId,
          password_hash: passwordHash,
          locale: body.locale,
          created_at: now,
          updated_at: now,
          search_text: searchTextOf(body.email, body.fullname),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      id = row.id;
    } catch (err) {
      // A double submit: the second insert meets the unique email of the first.
      if (isUniqueViolation(err)) throw emailExists();
      throw err;
    }

    let mailSent = false;
    if (!passwordHash) {
      const mail = await mailLink(
        req,
        { id, email: body.email, fullname: body.fullname, roleId, locale: body.locale },
        'invitation',
      );
      mailSent = mail.sent;
      if (mail.sent)
        await db
          .updateTable('users')
          .set({ status_id: UserStatus.InvitationSent })
          .where('id', '=', id)
          .execute();
    }
    await audit(req, {
      chapter: 'users',
      message: passwordHash || mailSent ? 'people.log.userCreated' : 'people.log.userCreatedMailFailed',
      params: { email: body.email, role: roleParam(roleId) },
    });
    const user = (await findUserById(db, id))!;
    return reply.status(201).send({ ...user, mailSent });
  });

  app.put('/user', async (req) => {
    const me = requireUser(req);
    const body = parse(UserUpdateBody, req.body);
    const isAdmin = me.role.id === Role.Administrator;
    if (!isAdmin) {
      const keys = Object.keys(body) as (keyof typeof body)[];
      if (body.id !== me.id) throw forbidden();
      if (keys.some((k) => !SELF_EDITABLE.includes(k)))
        throw forbidden((t) => t.people.errors.selfFieldsOnly());
    }
    const target = await findUserById(db, body.id);
    if (!target) throw notFound();
    if (
      target.id === me.id &&
      ((body.roles && body.roles[0] !== me.role.id) || (body.statusId && body.statusId !== me.statusId))
    ) {
      // An administrator demoting or deactivating themselves could leave nobody to undo it.
      throw conflict((t) => t.people.errors.notYourself());
    }
    await checkReferences(req, body);
    const email = body.email ?? target.email;
    if (email !== target.email && (await emailTaken(db, email, target.id))) throw emailExists();

    const roleId = body.roles?.[0] ?? target.role.id;
    const organizationId =
      body.organizationId !== undefined ? body.organizationId : (target.organization?.id ?? null);
    // Checked only when the role or organization changes, so an old record without one can still
    // be deactivated or renamed.
    const touchesOrg = body.roles !== undefined || body.organizationId !== undefined;
    if (touchesOrg && ROLES_NEEDING_ORGANIZATION.includes(roleId) && organizationId == null) {
      throw badRequest(
        (t) => t.errors.fieldError({ field: 'organizationId', reason: t.validation.required() }),
        { field: 'organizationId' },
      );
    }
    const statusId = body.statusId ?? target.statusId;
    if (statusId !== target.statusId && !canChangeStatus(target.statusId, statusId)) {
      const from = target.statusId;
      throw conflict((t) =>
        t.people.errors.cantChangeStatus({
          from: t.people.status[STATUS_KEYS[from]](),
          to: t.people.status[STATUS_KEYS[statusId]](),
        }),
      );
    }

    const fullname = body.fullname ?? target.fullname;
    const changes = {
      email: email !== target.email,
      fullname: fullname !== target.fullname,
      role: roleId !== target.role.id,
      organization: organizationId !== (target.organization?.id ?? null),
      category: body.categoryId !== undefined && body.categoryId !== (target.category?.id ?? null),
      status: statusId !== target.statusId,
      locale: body.locale !== undefined && body.locale !== target.locale,
    };
    const changed = Object.entries(changes)
      .filter(([, c]) => c)
      .map(([k]) => k);
    if (changed.length === 0) return target;

    const endsAccess = statusId === UserStatus.Deactivated && target.statusId !== UserStatus.Deactivated;
    try {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({
            email,
            fullname,
            role_id: roleId,
            organization_id: organizationId,
            ...(body.categoryId !== undefined ? { category_id: body.categoryId } : {}),
            status_id: statusId,
            ...(body.locale !== undefined ? { locale: body.locale } : {}),
            search_text: searchTextOf(email, fullname),
            updated_at: Date.now(),
          })
          .where('id', '=', target.id)
          .execute();
        if (endsAccess) {
          await revokeAllForUser(trx, target.id);
          await revokeTokens(trx, target.id);
        }
        // A changed address or role must not keep sign-ins made under the old one.
        if (changes.email || changes.role)
          await revokeAllForUser(trx, target.id, target.id === me.id ? req.auth!.familyId : undefined);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw emailExists();
      throw err;
    }
    if (changed.length === 1 && changes.status) {
      await audit(req, {
        chapter: 'users',
        message: 'people.log.statusChanged',
        params: { email, from: statusParam(target.statusId), to: statusParam(statusId) },
      });
    } else {
      await audit(req, {
        chapter: 'users',
        message: 'people.log.userUpdated',
        params: { email, fields: changed.join(', ') },
      });
    }
    return (await findUserById(db, target.id)) as User;
  });

  app.delete('/user', async (req) => {
    const me = requireRole(req, Role.Administrator);
    const { id } = parse(UserIdBody, req.body);
    if (id === me.id) throw conflict((t) => t.people.errors.notYourself());
    const target = await findUserById(db, id);
    if (!target) throw notFound();
    try {
      await db.transaction().execute(async (trx) => {
        await revokeAllForUser(trx, id);
        await trx.deleteFrom('users').where('id', '=', id).execute();
      });
    } catch (err) {
      if (isForeignKeyViolation(err)) throw conflict((t) => t.people.errors.userInUse());
      throw err;
    }
    await audit(req, {
      chapter: 'users',
      message: 'people.log.userDeleted',
      params: { email: target.email },
    });
    return { ok: true };
  });
}
