import * as v from 'valibot';
import { Role, ROLES, type RoleId, UserStatus, type UserStatusId } from './roles';
import { email, fullname, newPassword, int32Max, queryDigits, queryId, queryInt } from './validation';

// Payloads of the user administration, invitation and registration calls (spec section 7), shared
// by the forms and the server. Messages are keys of the i18n `validation` group.

export const PAGE_SIZE_MAX = 100;

/** page (1-based), pageSize (≤ 100), search, sort, order: the query of every paged list. */
export function listQuery<S extends string>(
  sorts: readonly [S, ...S[]],
  defaultSort: S,
  defaultOrder: 'asc' | 'desc' = 'asc',
) {
  const int = queryInt;
  return v.object({
    page: v.optional(int(1, 1_000_000), '1'),
    pageSize: v.optional(int(1, PAGE_SIZE_MAX), '20'),
    search: v.optional(v.pipe(v.string('type'), v.trim(), v.maxLength(200, 'tooLong')), ''),
    sort: v.optional(v.picklist(sorts, 'invalid'), defaultSort),
    order: v.optional(v.picklist(['asc', 'desc'] as const, 'invalid'), defaultOrder),
  });
}

/** For strict objects: a missing key is "required", an extra one "unknownField". */
export const objectMessage = (issue: v.BaseIssue<unknown>) =>
  issue.expected === 'never' ? 'unknownField' : 'required';

const id = v.pipe(v.number('type'), v.integer('integer'), v.minValue(1, 'positiveInteger'), int32Max);
const roleId = v.pipe(
  id,
  v.check((n) => ROLES.some((r) => r.id === n), 'invalid'),
  v.transform((n) => n as RoleId),
);
const locale = v.nullable(v.picklist(['ru', 'en'] as const, 'invalid'));

/** A user holds one role; the spec's payload carries it as `roles`, so we take a list of exactly one. */
const roles = v.pipe(v.array(roleId, 'type'), v.length(1, 'invalid'));

/** Roles whose work happens inside an organization (projects, reports, games). */
export const ROLES_NEEDING_ORGANIZATION: readonly RoleId[] = [
  Role.Researcher,
  Role.DemoResearcher,
  Role.Issuer,
];

function needsOrganization(input: { roles: RoleId[]; organizationId: number | null }): boolean {
  return !ROLES_NEEDING_ORGANIZATION.includes(input.roles[0]) || input.organizationId != null;
}

export const UserCreateBody = v.pipe(
  v.strictObject(
    {
      email,
      fullname,
      roles,
      organizationId: v.optional(v.nullable(id), null),
      categoryId: v.optional(v.nullable(id), null),
      locale: v.optional(locale, null),
      /** With a password the user is created Activated and no invitation is mailed. */
      password: v.optional(newPassword),
    },
    objectMessage,
  ),
  // Checked as soon as the role and organization are valid, even while other fields are not.
  v.forward(v.partialCheck([['roles'], ['organizationId']], needsOrganization, 'required'), [
    'organizationId',
  ]),
);
export type UserCreateBody = v.InferOutput<typeof UserCreateBody>;

export const UserUpdateBody = v.pipe(
  v.strictObject(
    {
      id,
      email: v.optional(email),
      fullname: v.optional(fullname),
      roles: v.optional(roles),
      organizationId: v.optional(v.nullable(id)),
      categoryId: v.optional(v.nullable(id)),
      statusId: v.optional(
        v.pipe(
          id,
          v.check((n) => Object.values(UserStatus).includes(n as UserStatusId), 'invalid'),
          v.transform((n) => n as UserStatusId),
        ),
      ),
      locale: v.optional(locale),
    },
    objectMessage,
  ),
);
export type UserUpdateBody = v.InferOutput<typeof UserUpdateBody>;

/** Fields a user may change about themselves; everything else is the administrator's. */
export const SELF_EDITABLE: readonly (keyof UserUpdateBody)[] = ['id', 'fullname', 'locale'];

/** GET /user?uid=: whose profile (one's own unless an Administrator asks). */
export const UserQuery = v.object({ uid: queryId });

export const UserIdBody = v.strictObject({ id }, objectMessage);

export const USER_SORTS = ['email', 'fullname', 'organization', 'category', 'status', 'createdAt'] as const;
export type UserSort = (typeof USER_SORTS)[number];

const queryRole = v.pipe(
  v.string('type'),
  queryDigits,
  v.toNumber('integer'),
  v.check((n) => ROLES.some((r) => r.id === n), 'invalid'),
  v.transform((n) => n as RoleId),
);

export const UsersQuery = v.object({
  ...listQuery(USER_SORTS, 'createdAt', 'desc').entries,
  // Repeated per role (GET /users?roles=2&roles=3); a single value arrives as a string.
  roles: v.optional(
    v.pipe(
      v.union([v.string(), v.array(v.string())], 'type'),
      v.transform((x) => (Array.isArray(x) ? x : [x])),
      v.array(queryRole),
      v.maxLength(ROLES.length, 'tooLong'),
    ),
    [],
  ),
});
export type UsersQuery = v.InferOutput<typeof UsersQuery>;

export const RegisterBody = v.strictObject({ email, fullname }, objectMessage);
export type RegisterBody = v.InferOutput<typeof RegisterBody>;

export const ForgotPasswordBody = v.strictObject({ email }, objectMessage);

// Mailed tokens: 32 random bytes in base64url. Anything else cannot be one of our links.
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const token = v.pipe(v.string('type'), v.trim(), v.nonEmpty('required'), v.maxLength(200, 'tooLong'));

export const TokenBody = v.strictObject({ token }, objectMessage);
export const PasswordByTokenBody = v.strictObject({ token, password: newPassword }, objectMessage);

/** The client's form for a new password: typed twice. */
export const NewPasswordForm = v.pipe(
  v.object({ password: newPassword, confirm: v.string('type') }),
  v.forward(
    v.check((x) => x.password === x.confirm, 'passwordsMatch'),
    ['confirm'],
  ),
);

/** What POST /invitations/confirm answers: enough for the page to greet the user. */
export interface InvitationInfo {
  email: string;
  fullname: string;
  statusId: UserStatusId;
  purpose: 'invitation' | 'reset';
}

/** How long a mailed link works (docs/decisions/people.md). */
export const LINK_TTL_MS = 7 * 24 * 3600_000;

/** The i18n key (people.role.<key>) of each role's name. */
export const ROLE_KEYS = {
  1: 'administrator',
  2: 'moderator',
  3: 'moderatorVK',
  4: 'researcher',
  5: 'issuer',
  6: 'demoResearcher',
} as const satisfies Record<RoleId, string>;
