import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db';
import { API, createPgDatabase, type TestServer } from './helpers';
import {
  callbackContent,
  completeSurvey,
  insertSurveyProject,
  startReceiver,
  until,
  type Receiver,
} from './callback-receiver';

// Never lost (issue 24): the real server as a child process, killed with SIGKILL after the answer
// that completes a block has committed: once before the call is made, once while the call is in
// flight. After a restart the call is made, with the same delivery id. SQLite, or PostgreSQL with
// TEST_DATABASE_URL.

const root = path.resolve(__dirname, '../..');
let dataDir: string;
let pg: Awaited<ReturnType<typeof createPgDatabase>> | null = null;
let child: ChildProcess | null = null;
let receiver: Receiver;
let db: Db;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

async function startMain(port: number, env: Record<string, string> = {}) {
  let out = '';
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: '',
      LOG_LEVEL: 'warn',
      SCRYPT_LOG_N: '10',
      ADMIN_PASSWORD: 'admin-pass1',
      CALLBACK_ALLOW_HOSTS: `127.0.0.1:${receiver.port}`,
      CALLBACK_RETRY_BASE_MS: '100',
      CALLBACK_POLL_MS: '100',
      CALLBACK_LEASE_MS: '6000',
      ...(pg ? { DATABASE_URL: pg.url } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  child = proc;
  await until(
    () => {
      if (proc.exitCode !== null) throw new Error(`server exited: ${out}`);
      return out.includes('is running at');
    },
    120_000, // a process that compiles the server's TypeScript: a minute and more on a loaded CI machine
    'the server to start',
  );
  return proc;
}

const killed = (proc: ChildProcess) =>
  new Promise<void>((r) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return r();
    proc.on('exit', () => r());
    proc.kill('SIGKILL');
  });

/** The API of the child on `port`, as completeSurvey calls it. */
const client = (port: number): Pick<TestServer, 'call'> => ({
  call: async (method, p, opts = {}) => {
    const res = await fetch(`http://127.0.0.1:${port}${API}${p}`, {
      method,
      headers: { 'content-type': 'application/json', ...opts.headers },
      body: JSON.stringify(opts.body ?? {}),
    });
    return { status: res.status, headers: res.headers, body: await res.json() };
  },
});

/** A survey project written straight into the child's database. */
async function project() {
  const fake = {
    app: { db },
    createOrganization: async () =>
      (
        await db
          .insertInto('organizations')
          .values({ name: `Org ${Math.random()}`, type: 1, category_id: null, created_at: Date.now() })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
  } as unknown as TestServer;
  return insertSurveyProject(fake, callbackContent(receiver.url));
}

const deliveries = (pid: number) =>
  db.selectFrom('callback_deliveries').selectAll().where('project_id', '=', pid).execute();

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-callbacks-'));
  if (process.env.TEST_DATABASE_URL) pg = await createPgDatabase(process.env.TEST_DATABASE_URL);
  receiver = await startReceiver();
});
afterAll(async () => {
  if (child) await killed(child);
  await db?.destroy();
  await receiver?.close();
  await pg?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('kill -9 after the commit and before the call: after a restart the call is made', async () => {
  const port = await freePort();
  // The first process writes deliveries but sends none: the kill comes before any call.
  let proc = await startMain(port, { CALLBACK_SENDER: 'off' });
  db = openDatabase({ databaseUrl: pg?.url ?? null, dataDir }).db;
  const { pid, link } = await project();
  await completeSurvey(client(port), link, ['q1', 'q2']);
  const [written] = await deliveries(pid);
  expect(written).toMatchObject({ status: 'pending', attempts: 0 });
  await killed(proc);
  expect(receiver.received).toHaveLength(0);

  proc = await startMain(port);
  const [got] = await until(() => (receiver.received.length ? receiver.received : null), 60_000, 'the call');
  expect(got.headers['x-survey-delivery']).toBe(written.id);
  expect(JSON.parse(got.body).id).toBe(written.id);
  await until(async () => (await deliveries(pid))[0].status === 'delivered', 10_000, 'delivered');
  await killed(proc);
}, 300_000);

it('kill -9 while the call is in flight: the claim runs out and the restarted server sends it again with the same id', async () => {
  receiver.received.length = 0;
  const port = await freePort();
  let hit: () => void = () => {};
  const first = new Promise<void>((r) => (hit = r));
  receiver.answer = (n) => {
    if (n === 0) {
      hit();
      return 'hang';
    }
    return 200;
  };
  let proc = await startMain(port);
  const { pid, link } = await project();
  await completeSurvey(client(port), link, ['q1', 'q2']);
  await first;
  await killed(proc);
  const [inFlight] = await deliveries(pid);
  expect(inFlight.status).toBe('pending');

  proc = await startMain(port);
  await until(
    async () => (await deliveries(pid))[0].status === 'delivered',
    60_000,
    'delivered after the lease',
  );
  expect(receiver.received).toHaveLength(2);
  expect(receiver.received[1].headers['x-survey-delivery']).toBe(inFlight.id);
  expect(receiver.received[0].headers['x-survey-delivery']).toBe(inFlight.id);
  expect(receiver.received[1].body).toBe(receiver.received[0].body);
  await killed(proc);
}, 300_000);
