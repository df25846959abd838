import type { Translation } from '../i18n-types';

// English texts of the projects screens; must have every key of ru/projects.ts.
const projects: Translation['projects'] = {};
export default projects;
