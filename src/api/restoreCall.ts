import type { User } from '../domain/user';
import { api } from './client';
import { callKey, earlyOr, startEarly } from './early';

// The stored sign-in's check (GET /user?uid=, spec section 4): started by the start-up's first
// module (src/startEarly.ts), before React and the rest of the start-up are evaluated, instead of
// after the sign-in actor's chunk has arrived and run (issue 25: on a signed-in page opened without
// a cached profile it was one more round trip before the first paint; issue 34: asked when the
// start-up had been evaluated, 40–60 ms into a reopen's critical path, its answer came after it).
// The sign-in actor's restore takes that call (restoreCall), or asks anew when there is none.

const key = (userId: number) => callKey('/user', { uid: userId });
const ask = (userId: number, quiet = false) => api.get<User>('/user', { query: { uid: userId }, quiet });

export function startRestoreCall(userId: number): void {
  startEarly(key(userId), () => ask(userId, true));
}

/** The restore's answer: the call started early when there is one, else asked now. */
export function restoreCall(userId: number): Promise<User> {
  return earlyOr(key(userId), () => ask(userId));
}
