import { afterAll, beforeAll, expect, it } from 'vitest';
import { DownloadThreads } from '../../server/reports/download-threads';
import { startServer, type TestServer } from './helpers';

// A server closing (or a thread idling out) just after a download thread was started must not take
// the process down: ended while it loads the SQLite addon, a worker thread aborts the whole process
// ("FATAL ERROR: Error::New napi_get_last_error_info"). This file's own process is the witness: were
// it aborted, the file would fail.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.close());

it('stops threads that are still starting without ending them mid-load', async () => {
  for (let i = 0; i < 6; i++) {
    const threads = new DownloadThreads(
      server.app.db,
      { databaseUrl: server.config.databaseUrl, dataDir: server.config.dataDir },
      2,
      () => {},
    );
    threads.warm();
    expect(threads.running).toBe(1);
    // Closed at once, and at staggered moments of the thread's start.
    if (i % 3) await new Promise((r) => setTimeout(r, i * 30));
    await threads.close();
    expect(threads.running).toBe(0);
  }
}, 120_000);
