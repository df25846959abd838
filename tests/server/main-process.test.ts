import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API, createPgDatabase } from './helpers';

// The real entry point as a user runs it: first start prints the URL and the administrator's
// login; data written before a kill -9 is there after a restart; a second start does not print
// the password again; SIGTERM stops the server cleanly.

const root = path.resolve(__dirname, '../..');
let dataDir: string;
let pg: Awaited<ReturnType<typeof createPgDatabase>> | null = null;
let child: ChildProcess | null = null;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

async function startMain(
  port: number,
  env: Record<string, string> = {},
): Promise<{ proc: ChildProcess; output: () => string }> {
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
      // The balancer's grace after SIGTERM is shutdown.test.ts's; here a stop need not wait for it.
      SHUTDOWN_DELAY_MS: '0',
      ...(pg ? { DATABASE_URL: pg.url } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  child = proc;
  const deadline = Date.now() + 120_000; // minutes-slow on a loaded CI machine
  while (!out.includes('is running at')) {
    if (proc.exitCode !== null) throw new Error(`server exited: ${out}`);
    if (Date.now() > deadline) throw new Error(`server did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { proc, output: () => out };
}

/** Waits for a line the process prints after its address (a pipe may deliver it in a later chunk). */
async function printed(output: () => string, re: RegExp): Promise<RegExpExecArray | null> {
  const deadline = Date.now() + 30_000;
  while (!re.test(output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return re.exec(output());
}

const exited = (proc: ChildProcess) =>
  new Promise<number | null>((r) =>
    proc.exitCode !== null ? r(proc.exitCode) : proc.on('exit', (code) => r(code)),
  );

async function login(port: number, email: string, password: string) {
  return fetch(`http://127.0.0.1:${port}${API}/authentication/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-main-'));
  if (process.env.TEST_DATABASE_URL) pg = await createPgDatabase(process.env.TEST_DATABASE_URL);
});
afterAll(async () => {
  child?.kill('SIGKILL');
  await pg?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('first start prints the URL and a generated administrator password that signs in', async () => {
  const port = await freePort();
  const { proc, output } = await startMain(port, { ADMIN_EMAIL: 'Boss@Example.com' });
  expect(output()).toContain(`http://127.0.0.1:${port}`);
  const password = (await printed(output, /password: (\S+)/))?.[1];
  expect(password).toBeTruthy();
  expect(output()).toContain('email:    boss@example.com');
  const res = await login(port, 'boss@example.com', password!);
  expect(res.status).toBe(200);

  // Change the password, then kill the process without any chance to flush.
  const headers = {
    'content-type': 'application/json',
    'x-auth-token': res.headers.get('x-auth-token')!,
    'x-refresh-token': res.headers.get('x-refresh-token')!,
  };
  const { user } = (await res.json()) as { user: { id: number } };
  const put = await fetch(`http://127.0.0.1:${port}${API}/user/password-reset`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ userId: user.id, password: 'survives9kill' }),
  });
  expect(put.status).toBe(200);
  proc.kill('SIGKILL');
  await exited(proc);

  const again = await startMain(port, { ADMIN_EMAIL: 'Boss@Example.com' });
  expect(again.output()).not.toContain('password:');
  expect((await login(port, 'boss@example.com', 'survives9kill')).status).toBe(200);
  expect((await login(port, 'boss@example.com', password!)).status).toBe(401);

  // The kill -9 left its claim on DATA_DIR behind, and the restart took no notice of it; a second
  // server on the same SQLite folder is refused while this one runs, and the claim goes with it.
  if (!pg) {
    const second = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        PORT: String(await freePort()),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        STATIC_DIR: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let said = '';
    second.stderr!.on('data', (d) => (said += d));
    expect(await exited(second)).toBe(1);
    expect(said).toMatch(/Cannot start: Another server \(process \d+/);
  }
  again.proc.kill('SIGTERM');
  expect(await exited(again.proc)).toBe(0);
  expect(fs.existsSync(path.join(dataDir, 'server.pid'))).toBe(false);
}, 480_000); // four starts of the real entry point, each a few seconds (a minute on a loaded CI machine)

it('ADMIN_PASSWORD sets the first administrator’s password', async () => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir);
  if (pg) {
    await pg.drop();
    pg = await createPgDatabase(process.env.TEST_DATABASE_URL!);
  }
  const port = await freePort();
  const { proc } = await startMain(port, { ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: 'chosen-pass1' });
  expect((await login(port, 'root@example.com', 'chosen-pass1')).status).toBe(200);
  proc.kill('SIGTERM');
  expect(await exited(proc)).toBe(0);
});
