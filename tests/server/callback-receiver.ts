import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TestServer } from './helpers';
import { insertSurveyProject } from './survey-fixtures';
import { newAnswer, newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';
import type { ProjectContent } from '../../src/domain/content/model';

// A real receiver of block callbacks on a loopback port (never any other address), the receiver code
// of docs/api.md as a receiver would copy it, and a two-block survey whose blocks call it.

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
  /** The caller's port: calls carried by one kept connection share it. */
  remotePort: number;
  /** For a request left unanswered ('hang'): when the caller closed it. */
  closedAt?: number;
}

export interface Receiver {
  port: number;
  url: string;
  received: Received[];
  /** How to answer the n-th request (0-based): a status, or 'hang' for no answer. */
  answer: (n: number, r: Received) => number | 'hang';
  /** Answers this much later (a receiver's own work). */
  delayMs: number;
  /** Connections open to it now. */
  connections: () => Promise<number>;
  close: () => Promise<void>;
}

/** `at`: another loopback address or a fixed port (tests of which connection carries a call). */
export async function startReceiver(
  answer: Receiver['answer'] = () => 200,
  at: { host?: string; port?: number } = {},
): Promise<Receiver> {
  const received: Received[] = [];
  const hanging = new Set<http.ServerResponse>();
  const receiver = { received, answer, delayMs: 0 } as Receiver;
  const srv = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = {
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
        remotePort: req.socket.remotePort ?? 0,
      };
      const n = received.push(r) - 1;
      const how = receiver.answer(n, r);
      if (how === 'hang') {
        hanging.add(res);
        res.on('close', () => (r.closedAt ??= Date.now()));
        return;
      }
      const send = () => res.writeHead(how, { 'content-type': 'text/plain' }).end('ok');
      if (receiver.delayMs > 0) setTimeout(send, receiver.delayMs);
      else send();
    });
  });
  const host = at.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => srv.listen(at.port ?? 0, host, resolve));
  const port = (srv.address() as { port: number }).port;
  receiver.port = port;
  receiver.url = `http://${host}:${port}/hook`;
  receiver.connections = () => new Promise((r) => srv.getConnections((_e, n) => r(n)));
  receiver.close = async () => {
    for (const res of hanging) res.destroy();
    srv.closeAllConnections();
    await new Promise<void>((r) => srv.close(() => r()));
  };
  return receiver;
}

/** The receiver's signature check exactly as docs/api.md prints it. */
export async function documentedVerifier(): Promise<
  (rawBody: string, header: string, secret: string, toleranceSec?: number) => boolean
> {
  const doc = fs.readFileSync(path.resolve(__dirname, '../../docs/api.md'), 'utf8');
  const block = /<!-- receiver -->\s*```js\n([\s\S]*?)```\s*<!-- \/receiver -->/.exec(doc);
  if (!block) throw new Error('docs/api.md has no receiver code');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'receiver-')), 'verify.mjs');
  fs.writeFileSync(file, block[1]);
  const mod = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as {
    verifySurveySignature: (
      rawBody: string,
      header: string,
      secret: string,
      toleranceSec?: number,
    ) => boolean;
  };
  return mod.verifySurveySignature;
}

/** Two blocks of two questions; B1 calls `url1`, B2 calls `url2` (empty: no callback). */
export function callbackContent(url1: string, url2 = ''): ProjectContent {
  const q = (id: string) =>
    newQuestion({
      id,
      text: id,
      answers: [newAnswer({ id: `${id}a`, text: 'A' }), newAnswer({ id: `${id}b`, text: 'B' })],
    });
  return {
    questionnaires: [
      newQuestionnaire({
        id: 'Q1',
        blocks: [
          newBlock({
            id: 'B1',
            name: 'First',
            customParams: '{"reward":50}',
            callbackUrl: url1,
            questions: [q('q1'), q('q2')],
          }),
          newBlock({ id: 'B2', name: 'Second', callbackUrl: url2, questions: [q('q3'), q('q4')] }),
        ],
      }),
    ],
    portraits: [],
  };
}

/** Starts a respondent through the link and answers every page (`pages` of them, "a" each). */
export async function completeSurvey(
  server: Pick<TestServer, 'call'>,
  link: string,
  pages = ['q1', 'q2', 'q3', 'q4'],
) {
  const start = await server.call('POST', `/survey/${link}/start`, { body: {} });
  if (start.status !== 200) throw new Error(`start: ${start.status} ${JSON.stringify(start.body)}`);
  const token = start.body.token as string;
  for (const [at, questionId] of pages.entries()) {
    const res = await server.call('POST', '/survey/answer', {
      body: { at, questionId, reply: { answers: [`${questionId}a`] } },
      headers: { 'x-respondent-token': token },
    });
    if (res.status !== 200)
      throw new Error(`answer ${questionId}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return token;
}

export { insertSurveyProject };

export async function until<T>(
  fn: () => T | Promise<T>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
