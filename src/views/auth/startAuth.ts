import { createActor, waitFor } from 'xstate';
import { authMachine } from '../../machines/auth';

// The sign-in actor's own chunk (with xstate): loaded before the first paint when credentials are
// stored, otherwise when the visitor starts to sign in (authStore.ts). Answers once the stored
// sign-in has been restored or found missing, so an `auth.login` sent next is never dropped.
export async function startAuth() {
  const actor = createActor(authMachine).start();
  await waitFor(actor, (s) => !s.matches('restoring'));
  return actor;
}
