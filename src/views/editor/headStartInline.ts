import { headStart } from './headStart';

// The inline script's entry (vite.config.ts, editorHeadStart): the editor's chunks come in the
// script element's data-chunks, which its CSP hash does not cover (only its text is hashed).

headStart(JSON.parse(document.currentScript?.getAttribute('data-chunks') ?? '[]') as string[]);
