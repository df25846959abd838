import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import * as v from 'valibot';
import type { Config } from '../config';

// Outgoing mail. With SMTP_URL set, messages go through nodemailer to that server; without it, each
// message is printed to the server log and kept as a .eml file under DATA_DIR/outbox, so a machine
// without a mail server still lets an operator hand the links over. Nothing is queued in memory:
// a failed send throws MailError and the caller decides (user created anyway, resend later).

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export class MailError extends Error {
  override readonly name = 'MailError';
}

/** Timeouts short enough that a dead mail server answers the administrator within seconds. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/** The sender when nothing better is known: a syntactically valid address in a reserved domain. */
export const PLACEHOLDER_FROM = 'no-reply@example.invalid';

/** The host of PUBLIC_URL when it is a domain name a mail server would accept in a sender. */
function mailDomain(publicUrl: string): string | null {
  let host: string;
  try {
    host = new URL(publicUrl).hostname;
  } catch {
    return null;
  }
  // An IP address (no-reply@127.0.0.1 is not an address at all), localhost or a single label.
  if (!host || host.startsWith('[') || /^[\d.]+$/.test(host) || !host.includes('.')) return null;
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.localdomain')) return null;
  return host;
}

/** The address part of "Name <addr>" or "addr", when it is a valid address. */
function addressOf(mailFrom: string): string | null {
  const m = /^\s*(?:[^<>]*<([^<>]+)>|([^<>\s]+))\s*$/.exec(mailFrom);
  const addr = m?.[1] ?? m?.[2];
  // valibot's email() wants a domain name (no-reply@127.0.0.1 is refused, as mail servers do).
  return addr && v.is(v.pipe(v.string(), v.email()), addr) ? addr : null;
}

/**
 * The sender of every mail: MAIL_FROM, else no-reply at PUBLIC_URL's host when that is a domain name,
 * else a placeholder that is at least a valid address (mail kept in the outbox; with SMTP the server
 * refuses to start first, see mailConfigProblem).
 */
export function fromAddress(config: Pick<Config, 'publicUrl' | 'mailFrom'>): string {
  if (config.mailFrom) return config.mailFrom;
  const domain = mailDomain(config.publicUrl);
  return domain ? `no-reply@${domain}` : PLACEHOLDER_FROM;
}

/**
 * Why the server must not start with this mail configuration, or null. Mail servers refuse senders
 * such as no-reply@127.0.0.1, so with SMTP a sender in a real domain is required (decision:
 * docs/decisions/hardening.md).
 */
export function mailConfigProblem(config: Pick<Config, 'publicUrl' | 'mailFrom' | 'smtpUrl'>): string | null {
  if (config.mailFrom) {
    return addressOf(config.mailFrom)
      ? null
      : `MAIL_FROM "${config.mailFrom}" is not a valid address: set it to an address such as no-reply@surveys.example.org or "Surveys <no-reply@surveys.example.org>".`;
  }
  if (config.smtpUrl && !mailDomain(config.publicUrl)) {
    return `MAIL_FROM is not set and the host of PUBLIC_URL (${config.publicUrl}) is not a domain name, so mail would come from an address mail servers refuse. Set MAIL_FROM to an address in your domain, such as no-reply@surveys.example.org.`;
  }
  return null;
}

function smtpMailer(config: Config): Mailer {
  const transport: Transporter = nodemailer.createTransport({ url: config.smtpUrl!, ...SMTP_TIMEOUTS });
  return {
    async send(message) {
      try {
        await transport.sendMail({ from: fromAddress(config), ...message });
      } catch (err) {
        throw new MailError(err instanceof Error ? err.message : String(err));
      }
    },
  };
}

function outboxMailer(config: Config, log: FastifyBaseLogger): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const dir = path.join(config.dataDir, 'outbox');
  return {
    async send(message) {
      try {
        const info = await transport.sendMail({ from: fromAddress(config), ...message });
        await fs.mkdir(dir, { recursive: true });
        const stamp = new Date().toISOString().replace(/[:.]/g, '-');
        const file = path.join(dir, `${stamp}-${crypto.randomBytes(4).toString('hex')}.eml`);
        await fs.writeFile(file, info.message as Buffer);
        log.info(
          { mail: { to: message.to, subject: message.subject, file } },
          `mail (no SMTP_URL):\n${message.text}`,
        );
      } catch (err) {
        throw new MailError(err instanceof Error ? err.message : String(err));
      }
    },
  };
}

// One transport per destination, built on first use and looked up by the current settings, so a
// changed SMTP_URL (tests switch it to a dead server) takes effect on the next message.
const mailers = new Map<string, Mailer>();

export function mailerFor(config: Config, log: FastifyBaseLogger): Mailer {
  const key = config.smtpUrl ?? `outbox:${config.dataDir}`;
  let mailer = mailers.get(key);
  if (!mailer) {
    mailer = config.smtpUrl ? smtpMailer(config) : outboxMailer(config, log);
    mailers.set(key, mailer);
  }
  return mailer;
}
