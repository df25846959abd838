import type { Translation } from '../i18n-types';

const common: Translation['common'] = {
  appName: 'Survey back-office',
  loading: 'Loading…',
  save: 'Save',
  cancel: 'Cancel',
  agree: 'Agree',
  close: 'Close',
  delete: 'Delete',
  edit: 'Edit',
  create: 'Create',
  retry: 'Retry',
  search: 'Search',
  yes: 'Yes',
  no: 'No',
  notAvailableYet: 'This section is not available yet.',
  notFoundTitle: 'Page not found',
  notFoundText: 'There is no such page. Check the address or go back home.',
  toHome: 'Go home',
  logout: 'Logout',
  profile: 'Profile',
};
export default common;
