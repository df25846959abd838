import http from 'node:http';
import { answered, nextPage } from './answer-walk';
import type { Walker } from './answer-respondents';
import type { AnswerFigures } from './answers-beside';

// The respondents of answers-beside.ts, in a process of their own (forked by it): answers arriving
// at a steady rate as a crowd's do (`crowd`), each the next page of one of the started respondents.
// Not autocannon: its rate is a budget per second that every connection spends at once when the
// second begins, so the server got each second's 300 answers in one burst and was idle the rest.
// Respondents answer from their own devices, so their load generator must not run in the server's
// event loop, where its request building, response parsing and garbage were counted in the
// server's stalls.
//
// The researcher's download is read here too (`{ download }`, answered with `{ fetched }`): a
// browser reads it elsewhere, and in the server's process its 20-40 MB of chunks, their parsing and
// their garbage were the server's.
//
// Messages from the parent: { init: walkers } once, then { start: { url, rate, connections } } and
// { stop: true } in turns; each stop is answered with { result }. The walkers keep their pages
// between runs, so a respondent never answers a page twice.

export interface StartMessage {
  url: string;
  rate: number;
  connections: number;
}

/** A download as its reader saw it. */
export interface Fetched {
  ms: number;
  firstByteMs: number;
  bytes: number;
  status: number;
}

export interface DownloadMessage {
  url: string;
  token: string;
}

/** Reads the whole download as a browser would, counting its bytes and when the first came. */
async function download({ url, token }: DownloadMessage): Promise<Fetched> {
  const started = performance.now();
  const res = await fetch(url, { headers: { 'x-auth-token': token, 'accept-language': 'en' } });
  let firstByteMs = 0;
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    firstByteMs ||= performance.now() - started;
    bytes += chunk.byteLength;
  }
  return {
    ms: Math.round(performance.now() - started),
    firstByteMs: Math.round(firstByteMs),
    bytes,
    status: res.status,
  };
}

let free: Walker[] = [];
let running: ReturnType<typeof crowd> | null = null;

/**
 * Answers arriving as a crowd's do: each respondent on their own, so the gaps between arrivals are
 * exponential with a mean of 1/rate (a Poisson process), sent whether or not earlier answers came
 * back, over at most `connections` kept-alive sockets. An answer's latency runs from the moment it was
 * due, so time spent queued for a socket, or a send this process made late, counts as waiting.
 */
function crowd({ url, rate, connections }: StartMessage) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  const pending = new Set<Promise<void>>();
  let ok = 0;
  let failed = 0;
  const began = performance.now();
  let due = began;
  let timer: NodeJS.Timeout | undefined;

  const send = (dueAt: number) => {
    const { walker, headers, body } = nextPage(free);
    const done = new Promise<void>((resolve) => {
      const req = http.request(url, { method: 'POST', agent, headers }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - dueAt);
          if (res.statusCode! >= 200 && res.statusCode! < 300) ok++;
          else failed++;
          answered(free, walker, res.statusCode!);
          resolve();
        });
      });
      req.on('error', () => {
        failed++;
        answered(free, walker, 0);
        resolve();
      });
      req.end(body);
    });
    pending.add(done);
    void done.then(() => pending.delete(done));
  };
  const tick = () => {
    const now = performance.now();
    while (due <= now) {
      send(due);
      due += -Math.log(1 - Math.random()) * (1000 / rate);
    }
    timer = setTimeout(tick, Math.max(0, due - performance.now()));
  };
  tick();

  return {
    async stop(): Promise<AnswerFigures> {
      clearTimeout(timer);
      const seconds = (performance.now() - began) / 1000;
      await Promise.all(pending);
      agent.destroy();
      latencies.sort((x, y) => x - y);
      return {
        p99: Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? 0),
        perSecond: Math.round((ok + failed) / seconds),
        answered: ok,
        failed,
      };
    },
  };
}

process.on(
  'message',
  (m: { init?: Walker[]; start?: StartMessage; stop?: true; download?: DownloadMessage }) => {
    if (m.init) free = m.init;
    else if (m.start) running = crowd(m.start);
    else if (m.stop) void running!.stop().then((result) => process.send!({ result }));
    else if (m.download) void download(m.download).then((fetched) => process.send!({ fetched }));
  },
);
// The parent's end ends this process (no dangling respondents after a failed bench).
process.on('disconnect', () => process.exit(0));
