import type { Locales } from '../../src/i18n/i18n-types';
import { LINK_TTL_MS } from '../../src/domain/users';
import { translator } from '../http/i18n';
import type { MailMessage } from './mailer';

// The messages we send, each in plain text and HTML, in one language: the recipient's when known,
// else the sender's (the administrator who invites, or the visitor who registers).

export type MailKind = 'invitation' | 'registration' | 'reset';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** `${PUBLIC_URL}/invitations?token=…`: every mailed link lands on the one confirmation page. */
export function linkFor(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/invitations?token=${encodeURIComponent(token)}`;
}

export function buildMail(
  kind: MailKind,
  locale: Locales,
  data: { to: string; name: string; link: string; role?: string },
): MailMessage {
  const t = translator(locale).people.mail;
  const body = t[kind];
  const intro =
    kind === 'invitation'
      ? t.invitation.text({ role: data.role ?? '' })
      : kind === 'reset'
        ? t.reset.text({ email: data.to })
        : t.registration.text();
  const days = Math.round(LINK_TTL_MS / (24 * 3600_000));
  const greeting = t.greeting({ name: data.name });
  const text = [
    greeting,
    '',
    intro,
    data.link,
    '',
    t.linkExpires({ days }),
    t.ignore(),
    '',
    `— ${t.signature()}`,
  ].join('\n');
  const link = escapeHtml(data.link);
  const html = `<!doctype html>
<html lang="${locale}"><body style="font-family:Arial,Helvetica,sans-serif;color:#1e293b;line-height:1.5">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(intro)}</p>
<p><a href="${link}" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(body.action())}</a></p>
<p style="font-size:13px;color:#475569">${link}</p>
<p style="font-size:13px;color:#475569">${escapeHtml(t.linkExpires({ days }))} ${escapeHtml(t.ignore())}</p>
<p>— ${escapeHtml(t.signature())}</p>
</body></html>`;
  return { to: data.to, subject: body.subject(), text, html };
}
