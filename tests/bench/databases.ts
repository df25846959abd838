import { startServer, type TestServer } from '../server/helpers';
import type { BenchResult } from './run';

export type DatabaseLabel = 'SQLite' | 'PostgreSQL';

/**
 * Runs `measure` on a fresh server over SQLite, then over PostgreSQL when BENCH_DATABASE_URL or
 * TEST_DATABASE_URL names one (BENCH_SKIP_SQLITE=1 leaves SQLite out), each closed afterwards.
 * startServer reads TEST_DATABASE_URL, so it is set only for the PostgreSQL run and put back after.
 */
export async function onEachDatabase(
  measure: (label: DatabaseLabel, server: TestServer) => Promise<BenchResult[]>,
): Promise<BenchResult[]> {
  const all: BenchResult[] = [];
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const saved = process.env.TEST_DATABASE_URL;
  delete process.env.TEST_DATABASE_URL;
  try {
    if (process.env.BENCH_SKIP_SQLITE !== '1') {
      const sqlite = await startServer();
      try {
        all.push(...(await measure('SQLite', sqlite)));
      } finally {
        await sqlite.close();
      }
    }
    if (pgUrl) {
      process.env.TEST_DATABASE_URL = pgUrl;
      const pg = await startServer();
      try {
        all.push(...(await measure('PostgreSQL', pg)));
      } finally {
        await pg.close();
      }
    }
  } finally {
    if (saved === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = saved;
  }
  return all;
}
