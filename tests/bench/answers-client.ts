import { autocannon, PAGES } from './answer-walk';

// The respondents of answers-beside.ts, in a process of their own (forked by it): autocannon at a
// steady rate, each request the next page of one of the started respondents. Respondents answer from
// their own devices, so their load generator must not run in the server's event loop, where its
// request building, response parsing and garbage were counted in the server's stalls.
//
// Messages from the parent: { init: walkers } once, then { start: { url, rate, connections } } and
// { stop: true } in turns; each stop is answered with { result }. The walkers keep their pages
// between runs, so a respondent never answers a page twice.

interface Walker {
  token: string;
  at: number;
}
export interface StartMessage {
  url: string;
  rate: number;
  connections: number;
}
export interface ClientResult {
  p99: number;
  perSecond: number;
  answered: number;
  failed: number;
}

let free: Walker[] = [];
let running: ReturnType<typeof autocannon> | null = null;

function start({ url, rate, connections }: StartMessage) {
  running = autocannon({
    url,
    connections,
    overallRate: rate,
    duration: 3600,
    requests: [
      {
        method: 'POST',
        setupRequest: (req, context) => {
          const w = free.shift();
          if (!w) throw new Error('every respondent has answered every page');
          context.walker = w;
          return {
            ...req,
            headers: { 'content-type': 'application/json', 'x-respondent-token': w.token },
            body: JSON.stringify({ at: w.at, questionId: `q${w.at}`, reply: { answers: [`q${w.at}a`] } }),
          };
        },
        onResponse: (status, _body, context) => {
          const w = context.walker as Walker | undefined;
          if (!w) return;
          if (status === 200) w.at++;
          if (w.at < PAGES) free.push(w);
        },
      },
    ],
  });
}

async function stop(): Promise<ClientResult> {
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

process.on('message', (m: { init?: Walker[]; start?: StartMessage; stop?: true }) => {
  if (m.init) free = m.init;
  else if (m.start) start(m.start);
  else if (m.stop) void stop().then((result) => process.send!({ result }));
});
// The parent's end ends this process (no dangling respondents after a failed bench).
process.on('disconnect', () => process.exit(0));
