import { headStart } from './headStartRun';

// The inline script's entry (vite.config.ts, editorHeadStart): the editor's chunks come in the
// script element's data-chunks and its dictionaries' in data-dictionaries, which its CSP hash does not cover (only its text is hashed).

const script = document.currentScript;
headStart(
  JSON.parse(script?.getAttribute('data-chunks') ?? '[]') as string[],
  JSON.parse(script?.getAttribute('data-dictionaries') ?? '{}') as Record<string, string[]>,
);
