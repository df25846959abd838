import type { Translation } from '../i18n-types';

const auth: Translation['auth'] = {
  login: {
    title: 'Sign in',
    email: 'Email',
    password: 'Password',
    submit: 'Sign in',
    noAccount: 'No account?',
    register: 'Register',
  },
};
export default auth;
