import { readAuth } from './api/storage';
import { startRestoreCall } from './api/restoreCall';
import { fetchOpenedProject } from './views/editor/earlyFetch';

// Imported first by the start-up (main.tsx), so that it runs before React and the rest of the
// start-up's modules are evaluated (40–60 ms on a reopen, issue 34):
// - with a stored sign-in, its check (GET /user, restoreCall.ts), which the first render waits for;
// - on a page opened straight on /project, the project itself, and the local copy's read when the
//   HTML's head start did not start it (headStart.ts; the editor's chunks are asked for by the head
//   start, else by routes.tsx a moment later). docs/decisions/reopen.md.

const stored = readAuth();
if (stored) startRestoreCall(stored.userId);
if (typeof location !== 'undefined' && location.pathname === '/project') fetchOpenedProject();
