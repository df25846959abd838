import { UserStatus, type UserStatusId } from './roles';

// Which status changes an administrator may make by hand (spec section 4). The selector offers
// Invitation sent, Activated and Deactivated, plus the current status; the server accepts exactly
// the four changes below and refuses the rest. Other moves (Created → Invitation sent on mailing,
// Invitation sent → Invitation accepted → Activated through the mailed link) belong to the
// invitation flow, never to this selector.

export const STATUS_CHOICES: readonly UserStatusId[] = [
  UserStatus.InvitationSent,
  UserStatus.Activated,
  UserStatus.Deactivated,
];

export const ALLOWED_STATUS_CHANGES: readonly (readonly [UserStatusId, UserStatusId])[] = [
  [UserStatus.InvitationSent, UserStatus.Activated],
  [UserStatus.InvitationSent, UserStatus.Deactivated],
  [UserStatus.Activated, UserStatus.Deactivated],
  [UserStatus.Deactivated, UserStatus.Activated],
];

export function canChangeStatus(from: number, to: number): boolean {
  return ALLOWED_STATUS_CHANGES.some(([a, b]) => a === from && b === to);
}

export interface StatusOption {
  id: UserStatusId;
  /** False for a choice the current status cannot move to (shown, but not selectable). */
  allowed: boolean;
  current: boolean;
}

/** What the status selector shows for a user in `current`: the three choices and the current one. */
export function statusOptions(current: UserStatusId): StatusOption[] {
  const ids = STATUS_CHOICES.includes(current) ? STATUS_CHOICES : [current, ...STATUS_CHOICES];
  return ids.map((id) => ({
    id,
    current: id === current,
    allowed: id === current || canChangeStatus(current, id),
  }));
}

/** Statuses from which a (new) invitation may be mailed: the user has not finished joining yet. */
export const CAN_INVITE: readonly UserStatusId[] = [
  UserStatus.Created,
  UserStatus.InvitationSent,
  UserStatus.InvitationAccepted,
];

/** The i18n key (people.status.<key>) of each status's name. */
export const STATUS_KEYS = {
  1: 'created',
  2: 'invitationSent',
  3: 'invitationAccepted',
  4: 'activated',
  5: 'deactivated',
} as const satisfies Record<UserStatusId, string>;
