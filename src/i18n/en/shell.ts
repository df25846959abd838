import type { Translation } from '../i18n-types';

const shell: Translation['shell'] = {
  log: {
    signedIn: 'Signed in',
    signedOut: 'Signed out',
    passwordChanged: 'Password changed',
    passwordSetFor: 'New password set for {email}',
  },
  layout: {
    mainNavigation: 'Main navigation',
  },
};
export default shell;
