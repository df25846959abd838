import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db';
import { hashPassword } from '../../server/auth/password';
import { writeSetting } from '../../server/repos/projects';
import { API, TEST_PASSWORD, createPgDatabase, type TestServer } from '../server/helpers';
import { freePort, startChild, type ChildServer } from '../server/child-server';
import { insertSurveyProject } from '../server/survey-fixtures';
import { newAnswer, newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';
import { Role, UserStatus } from '../../src/domain/roles';
import type { ReportJson } from '../../src/domain/reports';
import { exampleFailTimeoutMs, startNginx, type Nginx } from './nginx';

// Restarts behind a real balancer (issue 33): Debian's nginx with deploy/nginx.conf in front of two
// server processes on one PostgreSQL, each with its own DATA_DIR. While 50 respondents keep
// answering through nginx (each from its own loopback address, as TRUST_PROXY sees it), server A is
// stopped (SIGTERM), waited for and started again, then server B. No respondent sees a failed
// answer; every answer they were told was saved is in the database exactly once; the report equals
// a count of those answers; a picture uploaded through one server is served by the other.

const RESPONDENTS = 50;
const PAGES = 100;
/** A respondent's pause between pages: about 85 pages a minute, under the 120 a minute per respondent. */
const THINK_MS = 700;
const FAIL_TIMEOUT_MS = exampleFailTimeoutMs();

const env = (dataDir: string, databaseUrl: string) => ({
  DATABASE_URL: databaseUrl,
  DATA_DIR: dataDir,
  TRUST_PROXY: '1',
  SHUTDOWN_DELAY_MS: '1000',
  SHUTDOWN_TIMEOUT_MS: '10000',
  ADMIN_PASSWORD: 'admin-password-1',
});

let pg: Awaited<ReturnType<typeof createPgDatabase>>;
let db: Db;
const dirs: string[] = [];
const servers: ChildServer[] = [];
let nginx: Nginx | null = null;

afterAll(async () => {
  for (const s of servers) s.proc.kill('SIGKILL');
  await nginx?.stop();
  await db?.destroy();
  await pg?.drop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

interface Res {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- whatever came back
  headers: Record<string, string | string[] | undefined>;
}

/** One call over https (nginx's self-signed certificate) or http, on the given agent. */
function request(
  url: string,
  opts: {
    method?: string;
    body?: unknown;
    raw?: Buffer;
    headers?: Record<string, string>;
    agent?: https.Agent;
  },
): Promise<Res & { bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const body = opts.raw ?? (opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body)));
    const req = (u.protocol === 'https:' ? https : http).request(
      u,
      {
        method: opts.method ?? 'GET',
        agent: opts.agent,
        rejectUnauthorized: false,
        headers: {
          ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(body ? { 'content-length': String(body.length) } : {}),
          'accept-language': 'en',
          ...opts.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString('utf8');
          const json = (res.headers['content-type'] ?? '').includes('json') && text ? JSON.parse(text) : text;
          resolve({ status: res.statusCode!, body: json, headers: res.headers, bytes });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function ready(s: ChildServer) {
  const deadline = Date.now() + 30_000;
  while ((await request(`${s.url}/readyz`, {}).catch(() => ({ status: 0 }))).status !== 200) {
    if (Date.now() > deadline) throw new Error(`not ready: ${s.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** SIGTERM, wait for the exit (0), start again on the same port and DATA_DIR, wait until ready. */
async function restart(i: number, dataDir: string): Promise<number | null> {
  const old = servers[i];
  old.proc.kill('SIGTERM');
  const code = await old.exited;
  servers[i] = await startChild(old.port, env(dataDir, pg.url));
  await ready(servers[i]);
  return code;
}

const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'),
  crypto.randomBytes(64 * 1024),
]);

function questionnaire() {
  const questions = Array.from({ length: PAGES }, (_, i) =>
    newQuestion({
      id: `q${i}`,
      text: `Question ${i}`,
      answers: [newAnswer({ id: `q${i}a`, text: 'A' }), newAnswer({ id: `q${i}b`, text: 'B' })],
    }),
  );
  return {
    questionnaires: [newQuestionnaire({ id: 'Q1', blocks: [newBlock({ questions })] })],
    portraits: [],
  };
}

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL)
    throw new Error(
      'tests/ops need TEST_DATABASE_URL (a PostgreSQL where they may create databases): .ci/run sets it',
    );
  pg = await createPgDatabase(process.env.TEST_DATABASE_URL);
  for (let i = 0; i < 2; i++) dirs.push(fs.mkdtempSync(path.join(os.tmpdir(), `survey-nginx-${'ab'[i]}-`)));
  // One after the other: the first start migrates the database.
  for (const dir of dirs) servers.push(await startChild(await freePort(), env(dir, pg.url)));
  nginx = await startNginx(
    servers.map((s) => s.port),
    await freePort(),
    await freePort(),
  );
  db = openDatabase({ databaseUrl: pg.url, dataDir: dirs[0] }).db;
});

it('restarts both servers behind nginx while 50 respondents answer: no failed answer, each saved once, the report exact, pictures on both', async () => {
  // The project and its researcher, written beside the running servers.
  const shim = {
    app: { db },
    createOrganization: async () =>
      (
        await db
          .insertInto('organizations')
          .values({ name: 'Org', type: 1, category_id: null, created_at: Date.now() })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
  } as unknown as TestServer;
  const { pid, link } = await insertSurveyProject(shim, questionnaire());
  await writeSetting(db, pid, 'set_report_fill_online', true);
  const project = await db
    .selectFrom('projects')
    .select('organization_id')
    .where('id', '=', pid)
    .executeTakeFirstOrThrow();
  const now = Date.now();
  await db
    .insertInto('users')
    .values({
      email: 'researcher@example.com',
      fullname: 'Researcher',
      role_id: Role.Researcher,
      status_id: UserStatus.Activated,
      organization_id: project.organization_id,
      category_id: null,
      password_hash: await hashPassword(TEST_PASSWORD, 10),
      locale: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const login = await request(`${nginx!.url}${API}/authentication/login`, {
    method: 'POST',
    body: { email: 'researcher@example.com', password: TEST_PASSWORD },
  });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  const session = {
    'x-auth-token': String(login.headers['x-auth-token']),
    'x-refresh-token': String(login.headers['x-refresh-token']),
  };

  // A picture uploaded to server A is served by server B (and through nginx).
  const form = new FormData();
  form.append('images', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'p.png');
  const upload = await fetch(`${servers[0].url}${API}/picture`, {
    method: 'POST',
    headers: session,
    body: form,
  });
  expect(upload.status).toBe(200);
  const [{ url: pictureUrl }] = (await upload.json()) as { url: string }[];
  for (const base of [servers[1].url, nginx!.url]) {
    const got = await request(`${base}${pictureUrl}`, {});
    expect(got.status).toBe(200);
    expect(got.bytes.equals(PNG)).toBe(true);
  }

  // 50 respondents, each from its own address, answering page after page through nginx.
  const failures: string[] = [];
  const acked = new Map<string, { token: string; answers: Map<string, string> }>();
  let stop = false;
  const respondent = async (i: number) => {
    const agent = new https.Agent({
      keepAlive: true,
      maxSockets: 1,
      localAddress: `127.0.1.${i + 1}`,
      rejectUnauthorized: false,
    });
    try {
      const start = await request(`${nginx!.url}${API}/survey/${link}/start`, {
        method: 'POST',
        body: {},
        agent,
      });
      if (start.status !== 200) throw new Error(`start ${start.status} ${JSON.stringify(start.body)}`);
      const token = start.body.token as string;
      const mine = { token, answers: new Map<string, string>() };
      acked.set(token, mine);
      let at = 0;
      while (!stop && at < PAGES) {
        const answer = `q${at}${crypto.randomInt(2) ? 'a' : 'b'}`;
        const res = await request(`${nginx!.url}${API}/survey/answer`, {
          method: 'POST',
          body: { at, questionId: `q${at}`, reply: { answers: [answer] } },
          headers: { 'x-respondent-token': token },
          agent,
        }).catch((err: Error) => ({ status: 0, body: err.message }));
        if (res.status === 200 && res.body.answered === at + 1) {
          mine.answers.set(`q${at}`, answer);
          at++;
        } else failures.push(`respondent ${i}, page ${at}: ${res.status} ${JSON.stringify(res.body)}`);
        await new Promise((r) => setTimeout(r, THINK_MS * (0.75 + Math.random() / 2)));
      }
    } finally {
      agent.destroy();
    }
  };
  const running = Promise.all(Array.from({ length: RESPONDENTS }, (_, i) => respondent(i)));

  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  await pause(2000);
  const exitA = await restart(0, dirs[0]);
  // The rolling restart's rule (docs/operations.md): the next server only once the balancer has
  // taken this one back, fail_timeout after it is ready; else both could be left out at once.
  await pause(FAIL_TIMEOUT_MS + 1000);
  const exitB = await restart(1, dirs[1]);
  await pause(2000);
  stop = true;
  await running;

  const log = nginx!.accessLog();
  if (process.env.NGINX_DEBUG) {
    fs.writeFileSync('/tmp/nginx-access.log', log);
    fs.writeFileSync('/tmp/nginx-error.log', nginx!.errorLog());
    fs.writeFileSync('/tmp/nginx-servers.log', servers.map((s) => s.output()).join('\n-----\n'));
  }
  const retried = log.split('\n').filter((l) => l.includes('/survey/answer') && l.includes(', ')).length;
  console.log(
    `nginx restarts: ${[...acked.values()].reduce((n, r) => n + r.answers.size, 0)} answers acknowledged, ${retried} passed to a second server by nginx`,
  );
  expect(failures, `${failures.slice(0, 5).join('\n')}\nnginx: ${nginx!.errorLog().slice(-2000)}`).toEqual(
    [],
  );
  expect([exitA, exitB]).toEqual([0, 0]);
  expect(acked.size).toBe(RESPONDENTS);

  // Every acknowledged answer is in the database once, and nothing else is.
  const rows = await db
    .selectFrom('respondent_answers')
    .innerJoin('respondents', 'respondents.id', 'respondent_answers.respondent_id')
    .select(['respondents.token_hash', 'respondent_answers.question_id', 'respondent_answers.answer_id'])
    .where('respondent_answers.project_id', '=', pid)
    .execute();
  const stored = new Map<string, string[]>();
  for (const r of rows)
    stored.set(`${r.token_hash} ${r.question_id}`, [
      ...(stored.get(`${r.token_hash} ${r.question_id}`) ?? []),
      r.answer_id!,
    ]);
  const expected = new Map<string, string[]>();
  for (const { token, answers } of acked.values()) {
    const hash = crypto.createHash('sha256').update(token).digest('hex');
    for (const [q, a] of answers) expected.set(`${hash} ${q}`, [a]);
  }
  expect(stored.size).toBe(expected.size);
  expect(Object.fromEntries(stored)).toEqual(Object.fromEntries(expected));

  // The report equals a count of what the respondents were told was saved.
  const report = await request(`${nginx!.url}${API}/project/stats/file?pid=${pid}&type=json`, {
    headers: session,
  });
  expect(report.status, JSON.stringify(report.body)).toBe(200);
  const got = report.body as ReportJson;
  const counted = new Map<string, number>();
  for (const { answers } of acked.values())
    for (const a of answers.values()) counted.set(a, (counted.get(a) ?? 0) + 1);
  const reported = new Map<string, number>();
  for (const q of got.questions)
    for (const a of q.answers ?? []) if (a.count > 0) reported.set(a.id, a.count);
  expect(Object.fromEntries([...reported].sort())).toEqual(Object.fromEntries([...counted].sort()));
  expect(got.respondents.started).toBe(RESPONDENTS);
  const completed = [...acked.values()].filter((r) => r.answers.size === PAGES).length;
  expect(got.respondents.completed).toBe(completed);

  // The picture is still served by both (restarted) servers; no DATA_DIR holds pictures.
  for (const s of servers) expect((await request(`${s.url}${pictureUrl}`, {})).bytes.equals(PNG)).toBe(true);
  for (const dir of dirs) expect(fs.existsSync(path.join(dir, 'uploads'))).toBe(false);
});
