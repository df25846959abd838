import { expect, it } from 'vitest';
import { fromAddress } from '../../server/mail/mailer';

it('mails come from MAIL_FROM when set, else no-reply at the public host', () => {
  expect(fromAddress({ publicUrl: 'https://surveys.example.org', mailFrom: null })).toBe(
    'no-reply@surveys.example.org',
  );
  expect(
    fromAddress({ publicUrl: 'https://surveys.example.org', mailFrom: 'Surveys <team@example.org>' }),
  ).toBe('Surveys <team@example.org>');
});
