import { fetchOpenedProject } from './earlyFetch';

// Imported first by the start-up (main.tsx), so that it runs before React and the rest of the
// start-up's modules are evaluated: a page opened straight on /project asks for the project, opens
// the local copy in IndexedDB and asks for the editor's chunk at once. In a new tab IndexedDB's
// first open waits for the browser to set up the origin's storage (hundreds of milliseconds on a
// loaded machine), so every millisecond it starts earlier is one the outline does not wait
// (issue 34, docs/decisions/reopen.md).

if (typeof location !== 'undefined' && location.pathname === '/project') {
  fetchOpenedProject();
  // The same module routes.tsx loads for the page: asked for here, before the start-up has run.
  void import('./EditorPage').catch(() => {});
}
