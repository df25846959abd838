import type { FastifyRequest } from 'fastify';
import type { Locales } from '../../src/i18n/i18n-types';
import type { RoleId } from '../../src/domain/roles';
import { ROLE_KEYS } from '../../src/domain/users';
import { translator } from '../http/i18n';
import { deleteToken, issueToken, type TokenPurpose } from '../repos/invitations';
import { mailerFor, MailError } from './mailer';
import { buildMail, linkFor, type MailKind } from './templates';

// Mailing a link: a fresh token is stored, then the message goes out. When the mail server fails
// the new token is removed again and the caller is told, so older links keep working and nothing
// half-done stays behind; the caller revokes older links only after a successful send.

export interface LinkRecipient {
  id: number;
  email: string;
  fullname: string;
  roleId: RoleId;
  locale: string | null;
}

export type MailResult = { sent: true; tokenId: number } | { sent: false };

export async function mailLink(
  req: FastifyRequest,
  user: LinkRecipient,
  kind: MailKind,
): Promise<MailResult> {
  const { db, config } = req.server;
  const purpose: TokenPurpose = kind === 'reset' ? 'reset' : 'invitation';
  const { token, id } = await issueToken(db, user.id, purpose);
  // The recipient's language when we know it, else the sender's.
  const locale: Locales = user.locale === 'en' || user.locale === 'ru' ? user.locale : req.locale;
  const message = buildMail(kind, locale, {
    to: user.email,
    name: user.fullname,
    link: linkFor(config.publicUrl, token),
    role: translator(locale).people.role[ROLE_KEYS[user.roleId]](),
  });
  try {
    await mailerFor(config, req.server.log).send(message);
    return { sent: true, tokenId: id };
  } catch (err) {
    if (!(err instanceof MailError)) throw err;
    req.log.warn({ err, to: user.email, kind }, 'mail could not be sent');
    await deleteToken(db, id);
    return { sent: false };
  }
}
