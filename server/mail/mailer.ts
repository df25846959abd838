import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
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

export function fromAddress(config: Pick<Config, 'publicUrl' | 'mailFrom'>): string {
  if (config.mailFrom) return config.mailFrom;
  let host = 'localhost';
  try {
    host = new URL(config.publicUrl).hostname || host;
  } catch {
    /* keep localhost */
  }
  return `no-reply@${host}`;
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
