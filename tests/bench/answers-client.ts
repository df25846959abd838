import { autocannon, nextPageRequest } from './answer-walk';
import type { Walker } from './answer-respondents';
import type { AnswerFigures } from './answers-beside';

// The respondents of answers-beside.ts, in a process of their own (forked by it): autocannon at a
// steady rate, each request the next page of one of the started respondents. Respondents answer from
// their own devices, so their load generator must not run in the server's event loop, where its
// request building, response parsing and garbage were counted in the server's stalls.
//
// Messages from the parent: { init: walkers } once, then { start: { url, rate, connections } } and
// { stop: true } in turns; each stop is answered with { result }. The walkers keep their pages
// between runs, so a respondent never answers a page twice.

export interface StartMessage {
  url: string;
  rate: number;
  connections: number;
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

process.on('message', (m: { init?: Walker[]; start?: StartMessage; stop?: true }) => {
  if (m.init) free = m.init;
  else if (m.start) start(m.start);
  else if (m.stop) void stop().then((result) => process.send!({ result }));
});
// The parent's end ends this process (no dangling respondents after a failed bench).
process.on('disconnect', () => process.exit(0));
