import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { startServer, type Session, type TestServer } from './helpers';
import { parseMail, startMailSink } from './mail-sink';
import { Role, UserStatus } from '../../src/domain/roles';
import { configFromEnv } from '../../server/config';
import { mailerFor } from '../../server/mail/mailer';
import { buildMail, linkFor } from '../../server/mail/templates';

// Mail without SMTP_URL (printed to the log and kept under DATA_DIR/outbox), the message texts in
// both languages, and nodemailer over SMTP_URL.

describe('mail', () => {
  let server: TestServer;
  let admin: Session;

  beforeAll(async () => {
    server = await startServer((c) => {
      c.smtpUrl = null;
      c.publicUrl = 'https://back.example.org';
    });
    admin = await server.as(Role.Administrator, { organizationId: null });
  });
  afterAll(() => server?.close());

  const outbox = () => path.join(server.config.dataDir, 'outbox');

  it('keeps each message as a .eml file under DATA_DIR/outbox when SMTP_URL is unset', async () => {
    const res = await server.call('POST', '/user', {
      body: { email: 'outbox@example.com', fullname: 'Outbox Person', roles: [Role.Moderator], locale: 'ru' },
      session: admin,
    });
    expect(res.status).toBe(201);
    expect(res.body.statusId).toBe(UserStatus.InvitationSent);
    const files = fs.readdirSync(outbox()).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const mail = parseMail(fs.readFileSync(path.join(outbox(), files[0]), 'utf8'), ['outbox@example.com']);
    expect(mail.subject).toBe('Приглашение в бэк-офис опросов');
    expect(mail.raw).toMatch(/^To: outbox@example\.com$/m);
    expect(mail.raw).toMatch(/^From: no-reply@back\.example\.org$/m);
    expect(mail.link).toMatch(/^https:\/\/back\.example\.org\/invitations\?token=[A-Za-z0-9_-]{43}$/);
    expect(mail.html).toContain('Принять приглашение');
    // The link in the file is a working one.
    expect((await server.call('POST', '/invitations/confirm', { body: { token: mail.token } })).status).toBe(
      200,
    );
  });

  it('prints the message to the server log', async () => {
    const lines: { obj: unknown; msg: string }[] = [];
    const log = {
      info: (obj: unknown, msg: string) => lines.push({ obj, msg }),
    } as unknown as FastifyBaseLogger;
    const config = configFromEnv({});
    config.smtpUrl = null;
    config.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-test-'));
    try {
      const message = buildMail('reset', 'en', {
        to: 'log@example.com',
        name: 'Log Person',
        link: linkFor('http://x.test', 'tok'),
      });
      await mailerFor(config, log).send(message);
      expect(lines).toHaveLength(1);
      expect(lines[0].msg).toContain('http://x.test/invitations?token=tok');
      expect(lines[0].obj).toMatchObject({ mail: { to: 'log@example.com', subject: 'Password reset' } });
      expect(fs.readdirSync(path.join(config.dataDir, 'outbox'))).toHaveLength(1);
    } finally {
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    }
  });

  it('writes plain text and HTML in either language and escapes names in HTML', () => {
    const data = {
      to: 'a@example.com',
      name: '<b>Eve</b> & Co',
      link: 'https://x.test/invitations?token=abc',
      role: 'Researcher',
    };
    const en = buildMail('invitation', 'en', data);
    expect(en.subject).toBe('Invitation to the survey back-office');
    expect(en.text).toContain('Hello, <b>Eve</b> & Co!');
    expect(en.text).toContain('The link works for 7 days and only once.');
    expect(en.html).toContain('Hello, &lt;b&gt;Eve&lt;/b&gt; &amp; Co!');
    expect(en.html).not.toContain('<b>Eve</b>');
    const ru = buildMail('registration', 'ru', data);
    expect(ru.subject).toBe('Регистрация в бэк-офисе опросов');
    expect(ru.text).toContain('Ссылка действует 7 дней и только один раз.');
    expect(ru.html).toContain('<html lang="ru">');
  });

  it('sends through SMTP_URL with nodemailer', async () => {
    const sink = await startMailSink();
    const config = configFromEnv({});
    config.smtpUrl = sink.url;
    try {
      const log = { info: () => {} } as unknown as FastifyBaseLogger;
      await mailerFor(config, log).send(
        buildMail('reset', 'ru', {
          to: 'smtp@example.com',
          name: 'Имя',
          link: 'http://x.test/invitations?token=t1',
        }),
      );
      const got = await sink.waitFor('smtp@example.com');
      expect(got.subject).toBe('Восстановление пароля');
      expect(got.text).toContain('Здравствуйте, Имя!');
      expect(got.html).toContain('href="http://x.test/invitations?token=t1"');
    } finally {
      await sink.close();
    }
  });
});
