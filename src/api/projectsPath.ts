// The projects list's path, apart from projects.ts so the start-up's early call (earlyCalls.ts)
// does not bring the other project calls into the start-up chunk.
export const PROJECTS_PATH = '/projects';
