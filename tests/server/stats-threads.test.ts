import http from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startServer, type Session, type TestServer } from './helpers';
import { insertProject } from './content-helpers';
import { until } from './callback-receiver';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import { ReportQuery } from '../../src/domain/reports';
import { CrosstabQuery } from '../../src/domain/crosstab';
import type { ProjectContent } from '../../src/domain/content/model';
import { writeContent } from '../../server/repos/content';
import { insertRespondents, sampleContent, sampleRespondents } from '../../server/reports/sample';
import { readiness } from '../../server/reports/report';
import { textLanguage } from '../../server/reports/labels';
import { parse } from '../../server/http/validate';
import { writeDownload, type DownloadJob } from '../../server/reports/download-job';
import { DownloadThreads, WINDOW, type Download } from '../../server/reports/download-threads';
import { DownloadAborted } from '../../server/reports/workbook';

// The downloads run in worker threads (issue 34, part 3; server/reports/download-threads.ts), each
// with its own read-only connection to the database: a thread writes exactly the bytes the main
// thread writes, keeps its reader's pace (at most WINDOW in flight while nothing is read), stops when
// its reader goes away, and frees its place for the next download. SQLite, or PostgreSQL with
// TEST_DATABASE_URL.

// ≈ 2.3 MB of CSV, more than twice the window.
const RESPONDENTS = 6_000;
let server: TestServer;
let owner: Session;
let pid: number;
const content: ProjectContent = sampleContent({ extraQuestions: 7 });
const questions = content.questionnaires[0].blocks[0].questions;

beforeAll(async () => {
  server = await startServer();
  const org = await server.createOrganization();
  owner = await server.as(Role.Researcher, { organizationId: org });
  pid = await insertProject(server, org, { status: ProjectStatus.OnRotation, name: 'Threads' });
  await writeContent(server.app.db, pid, 0, content, owner.user.id);
  await insertRespondents(
    server.app.db,
    pid,
    content.questionnaires[0].id,
    sampleRespondents(34, RESPONDENTS, content),
  );
}, 300_000);
afterAll(() => server?.close());

async function projectRow() {
  return (await server.app.db.selectFrom('projects').selectAll().where('id', '=', pid).executeTakeFirst())!;
}

async function reportJob(query: Record<string, string>): Promise<DownloadJob> {
  const project = await projectRow();
  return {
    kind: 'report',
    project,
    ready: await readiness(server.app.db, project),
    content,
    query: parse(ReportQuery, { pid: String(pid), type: 'stats', ...query }),
    locale: 'en',
  };
}

function crosstabJob(rows: string, cols: string, format: 'csv' | 'json'): DownloadJob {
  return {
    kind: 'crosstab',
    project: { id: pid, name: 'Threads' },
    content,
    query: parse(CrosstabQuery, { pid: String(pid), rows, cols, format }),
    locale: 'en',
  };
}

/** What the same job writes on the main thread, on the server's own connection. */
async function onMainThread(job: DownloadJob): Promise<Buffer> {
  const out = new PassThrough();
  const [bytes] = await Promise.all([out.toArray(), writeDownload(job, server.app.db, out)]);
  return Buffer.concat(bytes);
}

/** The same JSON, but for the moments it was made at (generatedAt, the field's progress `at`). */
const unclocked = (text: string): unknown =>
  JSON.parse(text, (k, v: unknown) => (k === 'generatedAt' || k === 'at' ? undefined : v));

const where = () => ({ databaseUrl: server.config.databaseUrl, dataDir: server.config.dataDir });
const bytesOf = async (r: Readable) => Buffer.concat(await r.toArray());

describe('downloads in threads', () => {
  it('start a thread when the report is read, and write through the route exactly what the main thread writes', async () => {
    const session = await server.login(owner.user.email);
    // The report page's own call starts the thread its downloads will use.
    expect(server.app.downloads.running).toBe(0);
    const page = await server.call('GET', `/project/stats/file?pid=${pid}&type=json`, { session });
    expect(page.status).toBe(200);
    expect(server.app.downloads.running).toBe(1);
    const headers = {
      'x-auth-token': session.accessToken,
      'accept-encoding': 'identity',
      'accept-language': 'en',
    };
    const csv = await fetch(
      `${server.url}${API}/project/stats/file?pid=${pid}&type=stats&format=csv&gender=female`,
      {
        headers,
      },
    );
    expect(csv.status).toBe(200);
    const got = Buffer.from(await csv.arrayBuffer());
    expect(got.length).toBeGreaterThan(100_000);
    expect(got.equals(await onMainThread(await reportJob({ format: 'csv', gender: 'female' })))).toBe(true);

    const [rows, cols] = [questions.find((q) => q.category === 'oneAnswer')!.id, 'age'];
    const cross = await fetch(
      `${server.url}${API}/project/stats/crosstab?pid=${pid}&rows=${rows}&cols=${cols}&format=csv`,
      { headers },
    );
    expect(cross.status).toBe(200);
    const job = crosstabJob(rows, cols, 'csv');
    expect(Buffer.from(await cross.arrayBuffer()).equals(await onMainThread(job))).toBe(true);
    // The thread stays for the next download.
    expect(server.app.downloads.running).toBe(1);
  }, 120_000);

  it("make the report page's JSON and the Compare table's in a thread once one is ready, as the main thread makes them", async () => {
    const session = await server.login(owner.user.email);
    const threads = server.app.downloads;
    const before = threads.jsonInThreads;
    const path = `/project/stats/file?pid=${pid}&type=json&gender=female&openPageSize=5`;
    // The first call may come before any thread is ready: it is answered at once all the same (made
    // on the main thread), and a thread is started for the next.
    expect((await server.call('GET', path, { session })).status).toBe(200);
    expect(threads.running).toBeGreaterThan(0);
    const page = await until(
      async () => {
        const res = await server.call('GET', path, { session });
        expect(res.status).toBe(200);
        return threads.jsonInThreads > before ? res : null;
      },
      30_000,
      'a report made in a thread',
    );
    expect(page.headers.get('content-type')).toMatch(/^application\/json/);
    const project = await projectRow();
    const here = unclocked(
      (
        await onMainThread({
          kind: 'report-json',
          project,
          ready: await readiness(server.app.db, project),
          content,
          textLanguage: textLanguage(content, undefined, 'en'),
          query: parse(ReportQuery, { pid: String(pid), type: 'json', gender: 'female', openPageSize: '5' }),
          locale: 'en',
        })
      ).toString(),
    );
    const got = unclocked(JSON.stringify(page.body));
    expect(page.body.respondents.started).toBeGreaterThan(0);
    expect(got).toEqual(here);

    const [rows, cols] = [questions.find((q) => q.category === 'oneAnswer')!.id, 'age'];
    const made = threads.jsonInThreads;
    const table = await server.call('GET', `/project/stats/crosstab?pid=${pid}&rows=${rows}&cols=${cols}`, {
      session,
    });
    expect(table.status).toBe(200);
    expect(threads.jsonInThreads).toBe(made + 1);
    const job = crosstabJob(rows, cols, 'json');
    expect(unclocked(JSON.stringify(table.body))).toEqual(unclocked((await onMainThread(job)).toString()));
  }, 120_000);

  it("make a large project's JSON in a thread even before one is ready, and a small one's at once here", async () => {
    const job = crosstabJob(questions.find((q) => q.category === 'oneAnswer')!.id, 'age', 'json');
    const here = unclocked((await onMainThread(job)).toString());
    const small = new DownloadThreads(server.app.db, where(), 1);
    const large = new DownloadThreads(server.app.db, where(), 1);
    try {
      // No thread is ready in either: the small one is made on this thread and starts one.
      expect(unclocked((await small.json(job, async () => false)).toString())).toEqual(here);
      expect([small.jsonInThreads, small.running]).toEqual([0, 1]);
      // The large one waits for the thread it starts.
      expect(unclocked((await large.json(job, async () => true)).toString())).toEqual(here);
      expect([large.jsonInThreads, large.running]).toEqual([1, 1]);
    } finally {
      await Promise.all([small.close(), large.close()]);
    }
  }, 120_000);

  it('keep at most the window in flight while the reader takes nothing, and finish once it reads', async () => {
    const threads = new DownloadThreads(server.app.db, where(), 1);
    try {
      const job = await reportJob({ format: 'csv' });
      const whole = await onMainThread(job);
      expect(whole.length).toBeGreaterThan(2 * WINDOW);
      const download = threads.start(job);
      await download.ready;
      // Nothing reads it: what arrives stops at the window (and the chunk that crossed it).
      let last = -1;
      await until(
        async () => {
          await new Promise((r) => setTimeout(r, 300));
          const now = download.readableLength;
          const still = now === last;
          last = now;
          return still;
        },
        20_000,
        'the thread to wait',
      );
      expect(download.readableLength).toBeGreaterThan(0);
      expect(download.readableLength).toBeLessThanOrEqual(WINDOW + 256 * 1024);
      expect((await bytesOf(download)).equals(whole)).toBe(true);
      await download.done;
    } finally {
      await threads.close();
    }
  }, 120_000);

  it('stop when the reader goes away, and take the next download on the same thread', async () => {
    const threads = new DownloadThreads(server.app.db, where(), 1);
    try {
      const first: Download = threads.start(await reportJob({ format: 'xlsx' }));
      await first.ready;
      first.destroy();
      await expect(first.done).rejects.toBeInstanceOf(DownloadAborted);
      const next = threads.start(await reportJob({ format: 'csv', gender: 'male' }));
      const bytes = await bytesOf(next);
      expect(bytes.equals(await onMainThread(await reportJob({ format: 'csv', gender: 'male' })))).toBe(true);
      expect(threads.running).toBe(1);
    } finally {
      await threads.close();
    }
    expect(threads.running).toBe(0);
  }, 120_000);

  it('free the export slot of a download whose reader went away before the end', async () => {
    // Four downloads (the most at once) whose readers leave after the first bytes: each slot is
    // freed, so a fifth is served rather than told the server is busy.
    const session = await server.login(owner.user.email);
    const path = `${API}/project/stats/file?pid=${pid}&type=stats&format=xlsx`;
    const { port } = new URL(server.url);
    for (let i = 0; i < 4; i++)
      await new Promise<void>((resolve, reject) => {
        const req = http.get(
          { host: '127.0.0.1', port, path, headers: { 'x-auth-token': session.accessToken } },
          (res) => {
            expect(res.statusCode).toBe(200);
            res.once('data', () => {
              req.destroy();
              resolve();
            });
          },
        );
        req.on('error', reject);
      });
    const status = await until(
      async () => {
        const res = await fetch(`${server.url}${path}`, { headers: { 'x-auth-token': session.accessToken } });
        await res.arrayBuffer();
        return res.status === 200 ? res.status : null;
      },
      20_000,
      'a free slot',
    );
    expect(status).toBe(200);
  }, 120_000);
});
