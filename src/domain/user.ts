import type { UserRole, UserStatusId } from './roles';

/** A user as every call returns it (spec section 3). Secrets never leave the server. */
export interface User {
  id: number;
  email: string;
  fullname: string;
  role: UserRole;
  statusId: UserStatusId;
  organization: { id: number; name: string; type: number } | null;
  category: { id: number; name: string } | null;
  locale: 'ru' | 'en' | null;
  /** Registration date, unix milliseconds. */
  createdAt: number;
}
