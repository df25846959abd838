import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { Lifecycle } from './lifecycle';

// The graceful stop, as a balancer in front of several processes needs it (docs/operations.md):
// 1. SIGTERM: /readyz answers 503 at once; everything else is still served, for SHUTDOWN_DELAY_MS,
//    so that balancers that probe readiness take the process out before it goes;
// 2. then the listener closes (new connections are refused, which a balancer retries elsewhere) and
//    the calls in flight finish, within SHUTDOWN_TIMEOUT_MS;
// 3. the app's onClose hooks (server/app.ts): the callback sender stops claiming and writes its
//    results (claims still out at the deadline are released), the answers' group commit is flushed,
//    the database is closed;
// 4. exit 0. When the timeout had to cut calls still running, it says so and exits 1.
// SIGINT (Ctrl+C at a terminal) skips the delay; a second signal ends the delay at once.

declare module 'fastify' {
  interface FastifyInstance {
    lifecycle: Lifecycle;
  }
}

export interface StopOptions {
  delayMs: number;
  timeoutMs: number;
}

/** Stops the app as above; resolves to the process's exit code. `hurry` ends the delay early. */
export async function stopGracefully(
  app: FastifyInstance,
  opts: StopOptions,
  hurry: Promise<void> = new Promise(() => {}),
): Promise<number> {
  const { lifecycle } = app;
  lifecycle.stopping = true;
  app.log.info({ delayMs: opts.delayMs }, 'stopping: not ready from now on, still serving for the delay');
  let delayTimer: NodeJS.Timeout | undefined;
  await Promise.race([hurry, new Promise((r) => (delayTimer = setTimeout(r, opts.delayMs)))]);
  clearTimeout(delayTimer);

  lifecycle.deadline = Date.now() + opts.timeoutMs;
  let cut = 0;
  const cutTimer = setTimeout(() => {
    app.server.getConnections((_err, count) => {
      cut = Math.max(1, count ?? 1);
      app.log.error(
        { connections: cut, timeoutMs: opts.timeoutMs },
        'calls still in flight at the timeout were cut',
      );
      app.server.closeAllConnections();
    });
  }, opts.timeoutMs);
  // Only the HTTP calls are cut: once the last connection has ended, the onClose hooks have what is
  // left of the time (the sender releases its claims at the deadline).
  app.server.once('close', () => clearTimeout(cutTimer));
  try {
    await app.close();
  } finally {
    clearTimeout(cutTimer);
  }
  app.log.info('stopped');
  return cut > 0 ? 1 : 0;
}

/** Wires SIGTERM and SIGINT to the graceful stop, then exits with its code. */
export function stopOnSignals(app: FastifyInstance, ops: Config['ops']): void {
  let stopping = false;
  let hurry: () => void = () => {};
  const hurried = new Promise<void>((r) => (hurry = r));
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return hurry();
      stopping = true;
      const delayMs = signal === 'SIGINT' ? 0 : ops.shutdownDelayMs;
      stopGracefully(app, { delayMs, timeoutMs: ops.shutdownTimeoutMs }, hurried).then(
        (code) => process.exit(code),
        (err) => {
          app.log.error({ err }, 'the graceful stop failed');
          process.exit(1);
        },
      );
    });
  }
}
