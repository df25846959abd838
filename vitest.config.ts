import { defineConfig } from 'vitest/config';

// Four suites: `unit` (pure code, machines, Dexie on fake-indexeddb), `server` (the real Fastify
// server on a free port; SQLite by default, PostgreSQL when TEST_DATABASE_URL is set), `e2e`
// (the built SPA served by the real server, driven in Debian's Chromium) and `ops` (whole server
// processes with Debian's nginx and promtool, on the PostgreSQL of TEST_DATABASE_URL: .ci/run).
export default defineConfig({
  test: {
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
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
          // A page on a loaded 2-core machine can take more than expect.poll's default second.
          expect: { poll: { timeout: 10_000 } },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
