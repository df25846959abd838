import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

// A real SMTP server (the `smtp-server` package) that keeps every message it receives, for tests
// that follow a mailed link. Messages are decoded just enough to read them: headers, the plain text
// and HTML parts (quoted-printable or base64), and the /invitations link.

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** The first `/invitations?token=…` link of the plain-text part. */
  link: string | null;
  token: string | null;
  raw: string;
}

export interface MailSink {
  url: string;
  messages: ReceivedMail[];
  /** Resolves with the newest message to `to` once `count` of them have arrived. */
  waitFor: (to: string, count?: number, timeoutMs?: number) => Promise<ReceivedMail>;
  close: () => Promise<void>;
}

function decodeWords(s: string): string {
  // Whitespace between two encoded words is folding, not text.
  return s
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([bqBQ])\?([^?]*)\?=/g, (_m, _cs, enc: string, data: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQp(data.replace(/_/g, ' ')),
    );
}

function decodeQp(s: string): string {
  const bytes: number[] = [];
  const src = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < src.length; i++) {
    if (src[i] === '=' && /^[0-9A-F]{2}$/i.test(src.slice(i + 1, i + 3))) {
      bytes.push(parseInt(src.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(src[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function splitHeaders(part: string): { headers: Record<string, string>; body: string } {
  const at = part.search(/\r?\n\r?\n/);
  const head = at < 0 ? part : part.slice(0, at);
  const body = at < 0 ? '' : part.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { headers, body };
}

function decodeBody(headers: Record<string, string>, body: string): string {
  const enc = (headers['content-transfer-encoding'] ?? '').toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') return decodeQp(body);
  return body;
}

export function parseMail(raw: string, to: string[]): ReceivedMail {
  const { headers, body } = splitHeaders(raw);
  let text = '';
  let html = '';
  const visit = (h: Record<string, string>, b: string) => {
    const type = (h['content-type'] ?? 'text/plain').toLowerCase();
    const boundary = /boundary="?([^";]+)"?/i.exec(h['content-type'] ?? '')?.[1];
    if (type.startsWith('multipart/') && boundary) {
      for (const piece of b.split(`--${boundary}`).slice(1)) {
        if (piece.startsWith('--')) break;
        const p = splitHeaders(piece.replace(/^\r?\n/, ''));
        visit(p.headers, p.body);
      }
    } else if (type.startsWith('text/html')) html += decodeBody(h, b);
    else if (type.startsWith('text/plain')) text += decodeBody(h, b);
  };
  visit(headers, body);
  const link = /https?:\/\/\S+\/invitations\?token=[A-Za-z0-9_%-]+/.exec(text)?.[0] ?? null;
  const token = link ? decodeURIComponent(new URL(link).searchParams.get('token') ?? '') : null;
  return { to, subject: decodeWords(headers.subject ?? ''), text, html, link, token, raw };
}

export async function startMailSink(): Promise<MailSink> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    // Without STARTTLS nodemailer talks plain SMTP to the sink, as to a local relay.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        messages.push(parseMail(Buffer.concat(chunks).toString('utf8'), to));
        for (const w of waiters) w();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;

  const waitFor: MailSink['waitFor'] = (to, count = 1, timeoutMs = 10_000) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const mine = messages.filter((m) => m.to.includes(to.toLowerCase()));
        if (mine.length >= count) {
          waiters.delete(check);
          clearTimeout(timer);
          resolve(mine[mine.length - 1]);
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no mail #${count} to ${to} within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An SMTP URL where nothing listens: every send fails at once with ECONNREFUSED. */
export async function deadSmtpUrl(): Promise<string> {
  const net = await import('node:net');
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as AddressInfo).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return `smtp://127.0.0.1:${port}`;
}
