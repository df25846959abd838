// A download thread's entry (server/reports/download-threads.ts). A worker thread does not inherit
// the TypeScript loader the server runs under when it was registered in code (scripts/start.mjs), so
// the thread registers it before loading its own module; under `tsx` itself a second registration
// changes nothing.
import { register } from 'tsx/esm/api';

register();
await import('./download-worker.ts');
