import { api } from './client';
import type { User } from '../domain/user';
import type { RoleId, UserStatusId } from '../domain/roles';
import type { InvitationInfo } from '../domain/users';

// User administration, invitations, registration and passwords (spec section 7).

export const USERS_PATH = '/users';

export interface UserInput {
  email: string;
  fullname: string;
  roleId: RoleId;
  organizationId: number | null;
  categoryId: number | null;
  locale: 'ru' | 'en' | null;
}

export type CreatedUser = User & { mailSent: boolean };

export const createUser = (input: UserInput) => {
  const { roleId, ...rest } = input;
  return api.post<CreatedUser>('/user', { ...rest, roles: [roleId] });
};

export const updateUser = (
  id: number,
  patch: Partial<Omit<UserInput, 'roleId'>> & { roleId?: RoleId; statusId?: UserStatusId },
) => {
  const { roleId, ...rest } = patch;
  return api.put<User>('/user', { id, ...rest, ...(roleId ? { roles: [roleId] } : {}) });
};

export const deleteUser = (id: number) => api.del<{ ok: true }>('/user', { id });
export const resendInvitation = (id: number) => api.post<User>('/invitations/resend', { id });
/** The administrator sets someone's password (PUT /user/password-reset). */
export const setUserPassword = (userId: number, password: string) =>
  api.put<{ ok: true }>('/user/password-reset', { userId, password });

export const confirmInvitation = (token: string) =>
  api.post<InvitationInfo>('/invitations/confirm', { token });
/** A user sets their own password with a mailed token. */
export const setPasswordByToken = (token: string, password: string) =>
  api.post<{ ok: true; email: string }>('/user/password-reset', { token, password });
export const registerResearcher = (email: string, fullname: string) =>
  api.post<{ ok: true; email: string }>('/researcher', { email, fullname });
export const requestPasswordReset = (email: string) =>
  api.post<{ ok: true }>('/user/password-forgot', { email });
