import type { Translation } from '../i18n-types';

// English texts of the reports screens; must have every key of ru/reports.ts.
const reports: Translation['reports'] = {
  title: 'Reports',
  caption: 'Projects with reports',
  search: 'Search by name or ID',
  empty: 'No reports yet: they appear once a survey is running',
  open: 'Open report',
  openFor: 'Open the report of project “{name}”',
  deleteFor: 'Delete project “{name}”',
};
export default reports;
