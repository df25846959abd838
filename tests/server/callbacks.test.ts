import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import {
  callbackContent,
  completeSurvey,
  documentedVerifier,
  insertSurveyProject,
  startReceiver,
  until,
  type Receiver,
} from './callback-receiver';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import { newPortrait } from '../../src/domain/content/factory';
import { startRespondent } from '../../server/survey/respond';
import { CALL_TIMEOUT_MS } from '../../server/callbacks/outbound';

// Block callbacks end to end (issue 24): a respondent completes a block, the server calls a real HTTP
// receiver on a loopback port (exempted through CALLBACK_ALLOW_HOSTS), signed, retried, logged. A
// second receiver, not exempted, must get nothing. SQLite, or PostgreSQL with TEST_DATABASE_URL.

let server: TestServer;
let receiver: Receiver;
let stranger: Receiver;
let admin: Session;
const BASE_MS = 100;

beforeAll(async () => {
  receiver = await startReceiver();
  stranger = await startReceiver();
  server = await startServer((c) => {
    c.callbacks.allowHosts = [`127.0.0.1:${receiver.port}`];
    c.callbacks.retryBaseMs = BASE_MS;
    c.callbacks.maxAttempts = 3;
    c.callbacks.pollMs = 50;
  });
  admin = await server.as(Role.Administrator);
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
  await stranger?.close();
});

async function project(url1 = receiver.url, url2 = '') {
  return insertSurveyProject(server, callbackContent(url1, url2));
}
const mine = (pid: number) => receiver.received.filter((r) => JSON.parse(r.body).project.id === pid);
const log = async (pid: number, extra = '') => {
  const res = await server.call('GET', `/project/callbacks?pid=${pid}${extra}`, { session: admin });
  expect(res.status).toBe(200);
  return res.body as { total: number; items: Record<string, any>[] }; // eslint-disable-line @typescript-eslint/no-explicit-any
};
const settled = (pid: number, status: string) =>
  until(async () => (await log(pid)).items.find((d) => d.status === status), 15_000, status);

it('completing a block calls its callbackUrl once, signed: body, headers and signature check with the documented receiver code', async () => {
  receiver.answer = () => 200;
  const { pid, link } = await project();
  const secret = (await server.call('GET', `/project/callback-secret?pid=${pid}`, { session: admin })).body
    .secret;
  expect(secret).toMatch(/^whsec_/);
  await completeSurvey(server, link, ['q1', 'q2']);
  const [got] = await until(() => (mine(pid).length ? mine(pid) : null), 10_000, 'the call');
  const verify = await documentedVerifier();
  expect(got.headers['content-type']).toBe('application/json');
  expect(verify(got.body, String(got.headers['x-survey-signature']), secret)).toBe(true);
  // Any other secret, a changed body or a stale time fail the same check.
  expect(verify(got.body, String(got.headers['x-survey-signature']), `${secret}x`)).toBe(false);
  expect(verify(`${got.body} `, String(got.headers['x-survey-signature']), secret)).toBe(false);
  expect(verify(got.body, String(got.headers['x-survey-signature']), secret, -1)).toBe(false);
  const body = JSON.parse(got.body);
  expect(got.headers['x-survey-delivery']).toBe(body.id);
  expect(body).toMatchObject({
    event: 'block.completed',
    project: { id: pid, name: 'Survey' },
    block: { id: 'B1', name: 'First', customParams: '{"reward":50}' },
    respondent: { gameId: null, playerId: null },
    answers: [
      { questionId: 'q1', answerIds: ['q1a'], text: null, value: null },
      { questionId: 'q2', answerIds: ['q2a'], text: null, value: null },
    ],
  });
  expect(typeof body.respondent.id).toBe('number');
  expect(Date.parse(body.occurredAt)).toBeGreaterThan(Date.now() - 60_000);
  const entry = await settled(pid, 'delivered');
  expect(entry).toMatchObject({
    id: body.id,
    blockId: 'B1',
    url: receiver.url,
    attempts: 1,
    lastStatusCode: 200,
  });
  expect(entry.deliveredAt).toBeGreaterThan(0);
  // Finishing the survey completes B2, which has no callbackUrl: nothing more is sent.
  await new Promise((r) => setTimeout(r, 300));
  expect(mine(pid)).toHaveLength(1);
});

it('every block with a callbackUrl is delivered once per respondent, even after going back and completing it again', async () => {
  receiver.answer = () => 200;
  const { pid, link } = await project(receiver.url, receiver.url);
  const start = await server.call('POST', `/survey/${link}/start`, { body: {} });
  const token = start.body.token as string;
  const answer = (at: number, q: string, a = 'a') =>
    server.call('POST', '/survey/answer', {
      body: { at, questionId: q, reply: { answers: [`${q}${a}`] } },
      headers: { 'x-respondent-token': token },
    });
  expect((await answer(0, 'q1')).status).toBe(200);
  expect((await answer(1, 'q2')).status).toBe(200);
  expect((await answer(2, 'q3')).status).toBe(200);
  // Back to B1's last page with another answer: B1 is completed again, but was delivered already.
  expect((await answer(1, 'q2', 'b')).status).toBe(200);
  expect((await answer(2, 'q3')).status).toBe(200);
  expect((await answer(3, 'q4')).status).toBe(200);
  await until(() => mine(pid).length >= 2, 10_000, 'two calls');
  await new Promise((r) => setTimeout(r, 300));
  const blocks = mine(pid).map((r) => JSON.parse(r.body).block.id);
  expect(blocks.sort()).toEqual(['B1', 'B2']);
  expect((await log(pid)).total).toBe(2);
  expect((await log(pid, '&blockId=B2')).items.map((d) => d.blockId)).toEqual(['B2']);
});

it('a 500 is retried after a backoff with the same delivery id, then delivered', async () => {
  receiver.answer = (_n, r) =>
    JSON.parse(r.body).project.id === current && mine(current).length === 1 ? 500 : 200;
  const { pid, link } = await project();
  current = pid;
  await completeSurvey(server, link, ['q1', 'q2']);
  const entry = await settled(pid, 'delivered');
  const calls = mine(pid);
  expect(calls).toHaveLength(2);
  expect(calls[0].headers['x-survey-delivery']).toBe(calls[1].headers['x-survey-delivery']);
  expect(calls[0].body).toBe(calls[1].body);
  // The first gap is the base with jitter: between half of it and all of it (plus the poll).
  expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(BASE_MS / 2 - 5);
  expect(entry).toMatchObject({ attempts: 2, lastStatusCode: 200 });
});
let current = 0;

it('a receiver that does not answer within 5 s is retried', async () => {
  const { pid, link } = await project();
  receiver.answer = (_n, r) =>
    JSON.parse(r.body).project.id === pid && mine(pid).length === 1 ? 'hang' : 200;
  await completeSurvey(server, link, ['q1', 'q2']);
  const entry = await settled(pid, 'delivered');
  const calls = mine(pid);
  expect(calls).toHaveLength(2);
  // The sender's 5 s start when it sends; the receiver's clock starts when the body has arrived,
  // which on a loaded machine is some hundreds of ms later. So: the sender itself closed the hung
  // call (not the receiver), after nearly 5 s, and only then called again.
  expect(calls[0].closedAt).toBeDefined();
  expect(calls[0].closedAt! - calls[0].at).toBeGreaterThanOrEqual(CALL_TIMEOUT_MS - 1000);
  expect(calls[1].at).toBeGreaterThanOrEqual(calls[0].closedAt!);
  expect(calls[0].headers['x-survey-delivery']).toBe(calls[1].headers['x-survey-delivery']);
  expect(entry.attempts).toBe(2);
}, 120_000);

it('410 Gone stops at once', async () => {
  const { pid, link } = await project();
  receiver.answer = (_n, r) => (JSON.parse(r.body).project.id === pid ? 410 : 200);
  await completeSurvey(server, link, ['q1', 'q2']);
  const entry = await settled(pid, 'failed');
  expect(entry).toMatchObject({ attempts: 1, lastStatusCode: 410, nextAttemptAt: null });
  await new Promise((r) => setTimeout(r, BASE_MS * 8));
  expect(mine(pid)).toHaveLength(1);
});

it('after the last attempt the delivery is given up; Retry sends it once more', async () => {
  const { pid, link } = await project();
  let fail = true;
  receiver.answer = (_n, r) => (JSON.parse(r.body).project.id === pid && fail ? 503 : 200);
  await completeSurvey(server, link, ['q1', 'q2']);
  const entry = await settled(pid, 'gave-up');
  expect(entry).toMatchObject({ attempts: 3, lastStatusCode: 503, lastError: 'HTTP 503' });
  await new Promise((r) => setTimeout(r, BASE_MS * 8));
  expect(mine(pid)).toHaveLength(3);
  fail = false;
  const retry = await server.call('POST', '/project/callbacks/retry', {
    session: admin,
    body: { pid, id: entry.id },
  });
  expect(retry.status).toBe(200);
  await settled(pid, 'delivered');
  expect(mine(pid)).toHaveLength(4);
  expect(new Set(mine(pid).map((r) => r.headers['x-survey-delivery']))).toEqual(new Set([entry.id]));
  const again = await server.call('POST', '/project/callbacks/retry', {
    session: admin,
    body: { pid, id: entry.id },
  });
  expect(again.status).toBe(409);
  expect(again.body.code).toBe('not-retryable');
});

it('without the exemption a loopback address is refused, with its reason, and its receiver gets nothing', async () => {
  const { pid, link } = await project(stranger.url);
  await completeSurvey(server, link, ['q1', 'q2']);
  const entry = await settled(pid, 'refused');
  expect(entry.attempts).toBe(0);
  expect(entry.lastError).toContain('127.0.0.1 is loopback');
  // The same address written as IPv4-mapped IPv6 is refused too.
  const mapped = await project(`http://[::ffff:127.0.0.1]:${stranger.port}/x`);
  await completeSurvey(server, mapped.link, ['q1', 'q2']);
  expect((await settled(mapped.pid, 'refused')).lastError).toMatch(/is loopback/);
  await new Promise((r) => setTimeout(r, 300));
  expect(stranger.received).toHaveLength(0);
});

it('a test call from the editor goes to the saved callbackUrl; a new secret signs from then on', async () => {
  receiver.answer = () => 200;
  const { pid } = await project();
  const old = (await server.call('GET', `/project/callback-secret?pid=${pid}`, { session: admin })).body
    .secret;
  const rotated = await server.call('POST', '/project/callback-secret', { session: admin, body: { pid } });
  expect(rotated.status).toBe(200);
  expect(rotated.body.secret).not.toBe(old);
  const res = await server.call('POST', '/project/callbacks/test', {
    session: admin,
    body: { pid, blockId: 'B1' },
  });
  expect(res.status).toBe(200);
  const [got] = await until(() => (mine(pid).length ? mine(pid) : null), 10_000, 'the test call');
  const body = JSON.parse(got.body);
  expect(body).toMatchObject({
    id: res.body.id,
    test: true,
    block: { id: 'B1' },
    respondent: { id: null },
    answers: [],
  });
  const verify = await documentedVerifier();
  expect(verify(got.body, String(got.headers['x-survey-signature']), rotated.body.secret)).toBe(true);
  expect(verify(got.body, String(got.headers['x-survey-signature']), old)).toBe(false);
  expect((await settled(pid, 'delivered')).test).toBe(true);
  const noUrl = await server.call('POST', '/project/callbacks/test', {
    session: admin,
    body: { pid, blockId: 'B2' },
  });
  expect(noUrl.status).toBe(400);
  expect(noUrl.body.code).toBe('no-callback-url');
  const unknown = await server.call('POST', '/project/callbacks/test', {
    session: admin,
    body: { pid, blockId: 'nope' },
  });
  expect(unknown.status).toBe(400);
});

it('the log is for whoever reads the project; the secret, retries and test calls for Administrator and Moderator only', async () => {
  const org = await server.createOrganization();
  const researcher = await server.as(Role.Researcher, { organizationId: org });
  const outsider = await server.as(Role.Researcher);
  const moderator = await server.as(Role.Moderator);
  const { pid } = await project();
  await server.app.db
    .updateTable('projects')
    .set({ organization_id: org, status: ProjectStatus.OnRotation })
    .where('id', '=', pid)
    .execute();
  expect((await server.call('GET', `/project/callbacks?pid=${pid}`, { session: researcher })).status).toBe(
    200,
  );
  expect((await server.call('GET', `/project/callbacks?pid=${pid}`, { session: outsider })).status).toBe(404);
  expect(
    (await server.call('GET', `/project/callback-secret?pid=${pid}`, { session: researcher })).status,
  ).toBe(403);
  expect(
    (await server.call('GET', `/project/callback-secret?pid=${pid}`, { session: moderator })).status,
  ).toBe(200);
  expect(
    (await server.call('POST', '/project/callback-secret', { session: researcher, body: { pid } })).status,
  ).toBe(403);
  const bad = await server.call('GET', `/project/callbacks?pid=${pid}&limit=1000`, { session: researcher });
  expect(bad.status).toBe(400);
  expect(bad.body.message).toBeTruthy();
  // An empty number is refused as every other route refuses it, not read as 0 (issue 34).
  for (const q of ['limit=', 'offset=', 'limit=&offset=', 'limit=%20', 'offset=1e3', 'limit=0x10']) {
    const empty = await server.call('GET', `/project/callbacks?pid=${pid}&${q}`, { session: researcher });
    expect(empty.status, q).toBe(400);
    expect(empty.body.message, q).toMatch(/must be a number/);
  }
});

it('of two respondents racing for the last place, only the one counted makes a delivery for the last block', async () => {
  receiver.answer = () => 200;
  const content = {
    ...callbackContent(receiver.url, receiver.url),
    portraits: [newPortrait({ id: 'all', respondents: 1, params: [] })],
  };
  const { pid } = await insertSurveyProject(server, content, { template: 'target' });
  const project = { id: pid, status: ProjectStatus.OnRotation, template: 'target' };
  const tokens: string[] = [];
  for (let i = 0; i < 2; i++) {
    const r = await startRespondent(server.app.db, { project, source: 'link' });
    if (r.outcome !== 'started') throw new Error('not started');
    tokens.push(r.token);
  }
  const answer = (t: string, at: number, q: string) =>
    server.call('POST', '/survey/answer', {
      body: { at, questionId: q, reply: { answers: [`${q}a`] } },
      headers: { 'x-respondent-token': t },
    });
  // Both complete B1 (two deliveries), then race for the one place on the last page of B2.
  for (const t of tokens)
    for (const [at, q] of ['q1', 'q2', 'q3'].entries()) expect((await answer(t, at, q)).status).toBe(200);
  const last = await Promise.all(tokens.map((t) => answer(t, 3, 'q4')));
  // One takes the place; the other is turned away (quotaFull, or 409 once the project has moved on
  // to Survey finished).
  expect(
    last.filter((r) => r.body.status === 'completed'),
    JSON.stringify(last.map((r) => r.body)),
  ).toHaveLength(1);
  const rows = await server.app.db
    .selectFrom('callback_deliveries')
    .select(['block_id', 'respondent_id'])
    .where('project_id', '=', pid)
    .execute();
  expect(rows.filter((r) => r.block_id === 'B1')).toHaveLength(2);
  expect(rows.filter((r) => r.block_id === 'B2')).toHaveLength(1);
});
