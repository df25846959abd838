// localStorage records of spec section 3. `auth` holds the tokens and the user id; `auth-user` keeps
// the last loaded profile so the shell can still open offline. Both are cleared together.

import { forgetPictures, localStore as storage } from '../db/pictureKeys';

export interface StoredAuth {
  accessToken: string;
  refreshToken: string;
  userId: number;
}

export const AUTH_KEY = 'auth';
const USER_CACHE_KEY = 'auth-user';

export function readAuth(): StoredAuth | null {
  try {
    const raw = JSON.parse(storage()?.getItem(AUTH_KEY) ?? 'null');
    if (
      raw &&
      typeof raw.accessToken === 'string' &&
      typeof raw.refreshToken === 'string' &&
      Number.isInteger(raw.userId)
    ) {
      return raw;
    }
  } catch {
    /* a damaged record counts as none */
  }
  return null;
}

export function writeAuth(auth: StoredAuth): void {
  storage()?.setItem(AUTH_KEY, JSON.stringify(auth));
}

export function clearAuth(): void {
  storage()?.removeItem(AUTH_KEY);
  storage()?.removeItem(USER_CACHE_KEY);
  // The editor's opening pictures show projects' texts: not to the next person at this browser.
  forgetPictures();
}

export function readCachedUser<T extends { id: number }>(userId: number): T | null {
  try {
    const u = JSON.parse(storage()?.getItem(USER_CACHE_KEY) ?? 'null');
    return u && u.id === userId ? u : null;
  } catch {
    return null;
  }
}

export function cacheUser(user: { id: number }): void {
  storage()?.setItem(USER_CACHE_KEY, JSON.stringify(user));
}
