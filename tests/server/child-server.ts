import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The real entry point (server/main.ts) in a child process, as an operator runs it: for the tests
// that stop, restart or balance whole processes (shutdown.test.ts, tests/ops/).

// import.meta.url rather than __dirname: benches load this module as ES (tests/bench/nginx-answers.bench.ts).
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface ChildServer {
  proc: ChildProcess;
  port: number;
  url: string;
  output: () => string;
  /** Resolves to the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/** Starts server/main.ts (or `entry`, a module that runs it) on `port` and resolves once it prints its address. */
export async function startChild(
  port: number,
  env: Record<string, string>,
  timeoutMs = 120_000,
  entry = 'server/main.ts',
): Promise<ChildServer> {
  let out = '';
  const proc = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      STATIC_DIR: '',
      LOG_LEVEL: 'warn',
      SCRYPT_LOG_N: '10',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) =>
    proc.exitCode !== null ? r(proc.exitCode) : proc.on('exit', (code) => r(code)),
  );
  const deadline = Date.now() + timeoutMs;
  while (!out.includes('is running at')) {
    if (proc.exitCode !== null) throw new Error(`server exited: ${out}`);
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`server did not start: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { proc, port, url: `http://127.0.0.1:${port}`, output: () => out, exited };
}

/** Whether a new connection to the port is refused (the listener is closed). */
export function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}
