import { expect, it } from 'vitest';
import { fromAddress, mailConfigProblem, PLACEHOLDER_FROM } from '../../server/mail/mailer';

it('mails come from MAIL_FROM when set, else no-reply at the public host', () => {
  expect(fromAddress({ publicUrl: 'https://surveys.example.org', mailFrom: null })).toBe(
    'no-reply@surveys.example.org',
  );
  expect(
    fromAddress({ publicUrl: 'https://surveys.example.org', mailFrom: 'Surveys <team@example.org>' }),
  ).toBe('Surveys <team@example.org>');
});

it.each([
  'http://127.0.0.1:8080',
  'http://[::1]:8080',
  'http://localhost:8080',
  'http://intranet',
  'nonsense',
])('never makes a sender from a host that is not a domain name (%s)', (publicUrl) => {
  expect(fromAddress({ publicUrl, mailFrom: null })).toBe(PLACEHOLDER_FROM);
  // With SMTP the server refuses to start and says what to set.
  expect(mailConfigProblem({ publicUrl, mailFrom: null, smtpUrl: 'smtp://mail:25' })).toMatch(
    /^MAIL_FROM is not set .* Set MAIL_FROM to an address in your domain/,
  );
  // Without SMTP mail stays in the outbox, so the placeholder does no harm.
  expect(mailConfigProblem({ publicUrl, mailFrom: null, smtpUrl: null })).toBeNull();
  expect(
    mailConfigProblem({ publicUrl, mailFrom: 'no-reply@corp.example', smtpUrl: 'smtp://mail:25' }),
  ).toBeNull();
});

it('refuses a MAIL_FROM that is not an address, and takes one with a display name', () => {
  for (const bad of ['no-reply@127.0.0.1', 'nobody', 'Surveys <x@>', 'a@b@c'])
    expect(mailConfigProblem({ publicUrl: 'https://s.example.org', mailFrom: bad, smtpUrl: null })).toMatch(
      /is not a valid address/,
    );
  for (const good of ['team@example.org', 'Surveys <team@example.org>'])
    expect(
      mailConfigProblem({ publicUrl: 'http://127.0.0.1', mailFrom: good, smtpUrl: 'smtp://m' }),
    ).toBeNull();
});
