import type { Translation } from '../i18n-types';

const auth: Translation['auth'] = {
  login: {
    title: 'Sign in',
    email: 'Email',
    password: 'Password',
    submit: 'Sign in',
    noAccount: 'No account?',
    register: 'Register',
    forgot: 'Forgot your password?',
  },
  invitations: {
    title: 'Account confirmation',
    resetTitle: 'New password',
    checking: 'Checking the link…',
    confirmed: 'Account {email} is confirmed. Set a password to sign in.',
    resetFor: 'Set a new password for {email}.',
    password: 'Password',
    passwordConfirm: 'Repeat the password',
    passwordHint: 'At least 8 characters, with a digit and a lowercase letter.',
    submit: 'Set password',
    done: 'The password is set. You can sign in now.',
    toLogin: 'Sign in',
    noToken: 'The link has no confirmation code.',
    retry: 'Retry',
  },
  register: {
    title: 'Registration',
    intro:
      'Demo access for researchers. After registering we send you an email with a link to confirm your address and set a password.',
    email: 'Email',
    fullname: 'Full name',
    submit: 'Register',
    sent: 'An email with instructions was sent to {email}. Open the link in it to set your password.',
    sentTitle: 'Check your email',
    haveAccount: 'Already have an account?',
    toLogin: 'Sign in',
  },
  forgot: {
    title: 'Password reset',
    intro: 'Enter the address you sign in with. We will send a link to set a new password.',
    email: 'Email',
    submit: 'Send the link',
    sent: 'If account {email} exists and is active, an email with the link is on its way.',
    toLogin: 'Back to sign in',
  },
};
export default auth;
