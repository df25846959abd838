import type { Translation } from '../i18n-types';

// English texts of the reports screens; must have every key of ru/reports.ts.
const reports: Translation['reports'] = {};
export default reports;
