// The fixed role and user-status lists of spec section 3. Ids, names and the Russian descriptions
// are exactly as the spec gives them; the server seeds its tables from these constants.

export const ROLES_CREATED_AT = 1642612313;

export const Role = {
  Administrator: 1,
  Moderator: 2,
  ModeratorVK: 3,
  Researcher: 4,
  Issuer: 5,
  DemoResearcher: 6,
} as const;
export type RoleId = (typeof Role)[keyof typeof Role];
export type RoleName = keyof typeof Role;

export interface UserRole {
  id: RoleId;
  name: string;
  description: string;
  createdAt: number;
  deletedAt: number;
}

export const ROLES: readonly UserRole[] = [
  { id: 1, name: 'Administrator', description: 'Администратор', createdAt: ROLES_CREATED_AT, deletedAt: 0 },
  { id: 2, name: 'Moderator', description: 'Модератор', createdAt: ROLES_CREATED_AT, deletedAt: 0 },
  { id: 3, name: 'Moderator VK', description: 'Модератор VK', createdAt: ROLES_CREATED_AT, deletedAt: 0 },
  { id: 4, name: 'Researcher', description: 'Исследователь', createdAt: ROLES_CREATED_AT, deletedAt: 0 },
  { id: 5, name: 'Issuer', description: 'Издатель', createdAt: ROLES_CREATED_AT, deletedAt: 0 },
  {
    id: 6,
    name: 'DemoResearcher',
    description: 'Демо-исследователь',
    createdAt: ROLES_CREATED_AT,
    deletedAt: 0,
  },
];

export function roleById(id: number): UserRole | undefined {
  return ROLES.find((r) => r.id === id);
}

export const UserStatus = {
  Created: 1,
  InvitationSent: 2,
  InvitationAccepted: 3,
  Activated: 4,
  Deactivated: 5,
} as const;
export type UserStatusId = (typeof UserStatus)[keyof typeof UserStatus];

export const USER_STATUSES: readonly { id: UserStatusId; name: string }[] = [
  { id: 1, name: 'Created' },
  { id: 2, name: 'Invitation sent' },
  { id: 3, name: 'Invitation accepted' },
  { id: 4, name: 'Activated' },
  { id: 5, name: 'Deactivated' },
];

/** Statuses in which a user may sign in and keep sessions. */
export const CAN_SIGN_IN: readonly UserStatusId[] = [UserStatus.InvitationAccepted, UserStatus.Activated];
