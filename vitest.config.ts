import fs from 'node:fs';
import os from 'node:os';
import { defineConfig } from 'vitest/config';

/** The cores this process may really use: a container can see the host's CPUs while its CPU
 * quota (cgroup v2 cpu.max, v1 cfs_quota_us) allows two. Vitest's default (all CPUs but one) then
 * starts a worker per host CPU, and every test that times something runs many times slower. */
function usableCores(): number {
  const read = (f: string) => {
    try {
      return fs.readFileSync(f, 'utf8').trim();
    } catch {
      return '';
    }
  };
  let quota = Infinity;
  const [max, period] = read('/sys/fs/cgroup/cpu.max').split(' ');
  if (max && max !== 'max') quota = Number(max) / Number(period);
  const v1 = Number(read('/sys/fs/cgroup/cpu/cpu.cfs_quota_us'));
  if (v1 > 0) quota = Math.min(quota, v1 / Number(read('/sys/fs/cgroup/cpu/cpu.cfs_period_us')));
  return Math.max(1, Math.min(os.availableParallelism(), Math.floor(quota) || 1));
}

// Four suites: `unit` (pure code, machines, Dexie on fake-indexeddb), `server` (the real Fastify
// server on a free port; SQLite by default, PostgreSQL when TEST_DATABASE_URL is set), `e2e`
// (the built SPA served by the real server, driven in Debian's Chromium) and `ops` (whole server
// processes with Debian's nginx and promtool, on the PostgreSQL of TEST_DATABASE_URL: .ci/run).
export default defineConfig({
  test: {
    // A worker a core: the server tests wait on sockets, child processes and the database about
    // half the time, so two workers on two cores took the SQLite server suite from 8 to 3 minutes.
    maxWorkers: usableCores(),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/machines/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          // One module graph per worker, not per file: each file starts its own servers on its own
          // database, and no server test mocks a module or keeps state at module level. Importing
          // the server afresh for each of 80 files took a third of the suite (258 of 836 s).
          isolate: false,
          // Generous: a timeout only ends a hung test, and a loaded CI machine runs several times
          // slower than a quiet one (kill-and-restart tests took 30 s there).
          testTimeout: 90_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'ops',
          include: ['tests/ops/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/global-setup.ts'],
          // As the server suite: each file starts its own server and browser.
          isolate: false,
          // A page on a loaded 2-core machine can take more than expect.poll's default second.
          expect: { poll: { timeout: 20_000 } },
          // In CI a browser test that fails is tried once more (as Playwright's own runner is
          // usually set up there): a real Chromium on a loaded 2-core machine now and then loses a
          // race a user never sees, and one such loss kept a whole submission out. A test that
          // fails twice fails; one that passed only on its retry is named at the end of the log
          // (.ci/run), so a flaky test is seen, not hidden. Never retried outside CI.
          retry: process.env.CI ? 1 : 0,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
