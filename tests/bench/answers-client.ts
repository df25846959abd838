import { autocannon, nextPageRequest } from './answer-walk';
import type { Walker } from './answer-respondents';
import type { AnswerFigures } from './answers-beside';

// The respondents of answers-beside.ts, in a process of their own (forked by it): autocannon at a
// steady rate, each request the next page of one of the started respondents. Respondents answer from
// their own devices, so their load generator must not run in the server's event loop, where its
// request building, response parsing and garbage were counted in the server's stalls.
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
let running: ReturnType<typeof autocannon> | null = null;

function start({ url, rate, connections }: StartMessage) {
  running = autocannon({
    url,
    connections,
    overallRate: rate,
    duration: 3600,
    requests: [nextPageRequest(free)],
  });
}

async function stop(): Promise<AnswerFigures> {
  const run = running!;
  running = null;
  run.stop();
  const r = await run;
  return {
    p99: r.latency.p99,
    perSecond: Math.round(r.requests.average),
    answered: r['2xx'],
    failed: r.non2xx,
  };
}

process.on(
  'message',
  (m: { init?: Walker[]; start?: StartMessage; stop?: true; download?: DownloadMessage }) => {
    if (m.init) free = m.init;
    else if (m.start) start(m.start);
    else if (m.stop) void stop().then((result) => process.send!({ result }));
    else if (m.download) void download(m.download).then((fetched) => process.send!({ fetched }));
  },
);
// The parent's end ends this process (no dangling respondents after a failed bench).
process.on('disconnect', () => process.exit(0));
