import { fetchOpenedProject } from './earlyFetch';

// Imported first by the start-up (main.tsx), so that it runs before React and the rest of the
// start-up's modules are evaluated: a page opened straight on /project asks for the project at
// once, and reads the local copy itself when the HTML's head start did not (headStart.ts; the
// editor's chunks are asked for by the head start, else by routes.tsx a moment later). Issue 34,
// docs/decisions/reopen.md.

if (typeof location !== 'undefined' && location.pathname === '/project') fetchOpenedProject();
