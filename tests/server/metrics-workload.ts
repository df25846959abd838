import { startServer, type TestServer } from './helpers';
import {
  callbackContent,
  completeSurvey,
  insertSurveyProject,
  startReceiver,
  until,
} from './callback-receiver';
import { Role } from '../../src/domain/roles';

// A server with METRICS_TOKEN set, and a small workload of every kind the metrics count: sign-ins,
// respondents started and completed, answers (one resent, one refused), block callbacks delivered
// and retried, a call to no route. metrics.test.ts checks the numbers; tests/ops/promtool.test.ts
// lints the scrape with Prometheus' own promtool.

export const METRICS_TOKEN = 'metrics-test-token-0123456789';

export interface Workload {
  server: TestServer;
  /** What the workload did, as the metrics should count it. */
  did: {
    answers: number;
    resent: number;
    refused: number;
    started: number;
    completed: number;
    delivered: number;
    retried: number;
  };
  link: string;
  tokens: string[];
  scrape: () => Promise<string>;
  close: () => Promise<void>;
}

export async function runWorkload(): Promise<Workload> {
  const ok = await startReceiver(() => 200);
  const failing = await startReceiver(() => 503);
  const server = await startServer((c) => {
    c.ops.metricsToken = METRICS_TOKEN;
    c.callbacks.allowHosts = [`127.0.0.1:${ok.port}`, `127.0.0.1:${failing.port}`];
    // A failed attempt waits long before the next: the outbox keeps it pending for the scrape.
    c.callbacks.retryBaseMs = 3_600_000;
  });
  await server.as(Role.Researcher);
  const { link } = await insertSurveyProject(server, callbackContent(ok.url, failing.url));
  const tokens: string[] = [];
  for (let i = 0; i < 3; i++) tokens.push(await completeSurvey(server, link));
  // A fourth respondent answers one page, sends it again (nothing written), then a bad page.
  const fourth = await completeSurvey(server, link, ['q1']);
  tokens.push(fourth);
  const headers = { 'x-respondent-token': fourth };
  const again = await server.call('POST', '/survey/answer', {
    body: { at: 0, questionId: 'q1', reply: { answers: ['q1a'] } },
    headers,
  });
  const bad = await server.call('POST', '/survey/answer', {
    body: { at: 1, questionId: 'q2', reply: { answers: ['nope'] } },
    headers,
  });
  if (again.status !== 200 || bad.status !== 400)
    throw new Error(`resend ${again.status}, bad ${bad.status}`);
  await server.call('GET', '/no/such/route');
  // Three B1 deliveries delivered, three B2 deliveries tried once and waiting.
  await until(() => ok.received.length >= 3 && failing.received.length >= 3, 15_000, 'deliveries');
  await until(
    async () =>
      Number(
        (
          await server.app.db
            .selectFrom('callback_deliveries')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('attempts', '>', 0)
            .where('lease_until', 'is', null)
            .executeTakeFirstOrThrow()
        ).n,
      ) === 6,
    15_000,
    'attempts recorded',
  );

  const scrape = async () => {
    const res = await fetch(`${server.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    if (res.status !== 200) throw new Error(`scrape: ${res.status}`);
    return res.text();
  };
  return {
    server,
    did: { answers: 13, resent: 1, refused: 1, started: 4, completed: 3, delivered: 3, retried: 3 },
    link,
    tokens,
    scrape,
    close: async () => {
      await server.close();
      await ok.close();
      await failing.close();
    },
  };
}

/** The samples of a scrape: `name{labels}` → value (labels as written, in the order written). */
export function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const i = line.lastIndexOf(' ');
    out.set(line.slice(0, i), Number(line.slice(i + 1)));
  }
  return out;
}
