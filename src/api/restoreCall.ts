import type { User } from '../domain/user';
import { api } from './client';
import { callKey, earlyOr, startEarly } from './early';

// The stored sign-in's check (GET /user?uid=, spec section 4): started by the start-up beside the
// sign-in actor's chunk instead of after it has arrived and run (issue 25: on a signed-in page
// opened without a cached profile it was one more round trip before the first paint).

const key = (userId: number) => callKey('/user', { uid: userId });
const ask = (userId: number, quiet = false) => api.get<User>('/user', { query: { uid: userId }, quiet });

export function startRestoreCall(userId: number): void {
  startEarly(key(userId), () => ask(userId, true));
}

/** The restore's answer: the call started early when there is one, else asked now. */
export function restoreCall(userId: number): Promise<User> {
  return earlyOr(key(userId), () => ask(userId));
}
