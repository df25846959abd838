import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { KyselyPlugin, RootOperationNode } from 'kysely';
import { startServer, type TestServer } from './helpers';
import { insertProject } from './content-helpers';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import type { ProjectContent } from '../../src/domain/content/model';
import type { ReportJson } from '../../src/domain/reports';
import type { Db } from '../../server/db';
import { writeContent } from '../../server/repos/content';
import { insertRespondents, sampleContent, sampleRespondents } from '../../server/reports/sample';
import { buildReport, readiness } from '../../server/reports/report';
import { DownloadAborted, writeCsv, writeXlsx } from '../../server/reports/workbook';
import { translator } from '../../server/http/i18n';
import { writeSav } from '../../server/reports/sav/survey';
import { hasPspp, parseCsv, psppCsv } from './pspp';

// The streamed workbook follows its reader: while the reader takes nothing, the writer stops reading
// respondents from the database after a few pages (instead of piling the whole raw sheet's XML up in
// memory), goes on when the reader does, and stops for good when the reader goes away or takes
// nothing for a while. On SQLite the reads are synchronous, so without this the whole export ran
// before a single byte left. Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.

// 16 pages of 500, ≈ 11 MB of the raw sheet's XML at 20 questions. While the reader takes nothing,
// about 1 MB of XML waits for deflate (SHEET_BACKLOG) and deflate has taken 1–2 MB more, kept
// compressed in zlib's, the zip's and the reader's buffers: 4–5 pages read, on either database.
const RESPONDENTS = 8_000;
const PAGES = RESPONDENTS / 500;
const AHEAD = 8;
let server: TestServer;
let pid: number;
let ids: number[];
let report: ReportJson;
const content: ProjectContent = sampleContent({ extraQuestions: 7 });

beforeAll(async () => {
  server = await startServer();
  const org = await server.createOrganization();
  const owner = await server.as(Role.Researcher, { organizationId: org });
  pid = await insertProject(server, org, { status: ProjectStatus.OnRotation, name: 'Backpressure' });
  await writeContent(server.app.db, pid, 0, content, owner.user.id);
  ids = await insertRespondents(
    server.app.db,
    pid,
    content.questionnaires[0].id,
    sampleRespondents(21, RESPONDENTS, content),
  );
  const project = (await server.app.db
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', pid)
    .executeTakeFirst())!;
  const ready = await readiness(server.app.db, project);
  report = await buildReport(server.app.db, project, {
    filters: {},
    openPage: 1,
    openPageSize: 1,
    ready,
    content,
  });
}, 300_000); // 8 000 respondents written: minutes on a loaded CI machine
afterAll(() => server?.close());

/** The database, counting the pages of answers the writer reads (one query per page). */
function countingPages(db: Db) {
  const seen = { pages: 0 };
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }): RootOperationNode => {
      if (node.kind === 'SelectQueryNode' && JSON.stringify(node.from).includes('"respondent_answers"'))
        seen.pages++;
      return node;
    },
    transformResult: ({ result }) => Promise.resolve(result),
  };
  return { db: db.withPlugin(plugin), seen };
}

/** A reader that holds the first chunk it gets until released, as a client that stops reading. */
function stalledReader() {
  const chunks: Buffer[] = [];
  let held: (() => void) | null = null;
  let open = false;
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk);
      if (open) done();
      else held = done;
    },
  });
  return {
    stream,
    chunks,
    get holding() {
      return held !== null;
    },
    release() {
      open = true;
      held?.();
      held = null;
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the count has not moved for `quiet` ms (the writer is waiting), at most 10 s. */
async function settled(read: () => number, quiet = 400) {
  const end = Date.now() + 10_000;
  let last = read();
  let since = Date.now();
  while (Date.now() < end && Date.now() - since < quiet) {
    await sleep(25);
    if (read() !== last) {
      last = read();
      since = Date.now();
    }
  }
  return last;
}

describe('the streamed workbook and a slow reader', () => {
  it('stops reading the database while the reader takes nothing, and completes once it does', async () => {
    const { db, seen } = countingPages(server.app.db);
    const reader = stalledReader();
    const written = writeXlsx(reader.stream, db, report, content, translator('en'));
    let finished = false;
    void written.then(() => (finished = true));

    const whileStalled = await settled(() => seen.pages);
    expect(reader.holding).toBe(true);
    expect(finished).toBe(false);
    expect(whileStalled).toBeGreaterThanOrEqual(1);
    expect(whileStalled).toBeLessThanOrEqual(AHEAD);

    reader.release();
    await written;
    expect(seen.pages).toBe(PAGES);

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.concat(reader.chunks) as unknown as ArrayBuffer);
    const raw = wb.getWorksheet('Respondents')!;
    expect(raw.actualRowCount).toBe(RESPONDENTS + 1);
    const column: unknown[] = [];
    raw.eachRow((row, n) => n > 1 && column.push(row.getCell(1).value));
    expect(column).toEqual(ids);
  }, 120_000);

  it.skipIf(!hasPspp)(
    'stalls the SPSS file’s reads too, and completes it once the reader takes it',
    async () => {
      const { db, seen } = countingPages(server.app.db);
      const reader = stalledReader();
      const written = writeSav(reader.stream, db, report, content, translator('en'));
      let finished = false;
      void written.then(() => (finished = true));
      // One more query of answer rows than pages: the string widths, read before the cases.
      const whileStalled = await settled(() => seen.pages);
      expect(reader.holding).toBe(true);
      expect(finished).toBe(false);
      expect(whileStalled).toBeLessThanOrEqual(AHEAD + 1);
      reader.release();
      await written;
      expect(seen.pages).toBe(PAGES + 1);
      const cases = parseCsv(await psppCsv(Buffer.concat(reader.chunks)));
      expect(cases.slice(1).map((c) => Number(c[0]))).toEqual(ids);
    },
    60_000,
  );

  it('stops for good when the reader goes away while the writer waits', async () => {
    const { db, seen } = countingPages(server.app.db);
    const reader = stalledReader();
    const written = writeXlsx(reader.stream, db, report, content, translator('en'));
    const result = written.then(
      () => 'finished',
      (err: unknown) => err,
    );
    expect(await settled(() => seen.pages)).toBeLessThanOrEqual(AHEAD);
    expect(reader.holding).toBe(true);
    reader.stream.destroy();
    expect(await result).toBeInstanceOf(DownloadAborted);
    // A page already asked for when the reader went away may still arrive (on a slow machine the
    // writer can look settled while its next read is on the way); none is asked for after.
    const atAbort = seen.pages;
    expect(atAbort).toBeLessThanOrEqual(AHEAD + 1);
    await sleep(500);
    expect(seen.pages).toBe(atAbort);
  }, 120_000);

  it('ends the download when the reader takes nothing for a while, XLSX, CSV and SAV alike', async () => {
    for (const write of [writeXlsx, writeCsv, writeSav]) {
      const { db, seen } = countingPages(server.app.db);
      const reader = stalledReader();
      const started = Date.now();
      // 300 ms here; READER_GONE_MS (a minute) in the server.
      const result = await write(reader.stream, db, report, content, translator('en'), undefined, 300).then(
        () => 'finished',
        (err: unknown) => err,
      );
      expect(result).toBeInstanceOf(DownloadAborted);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(seen.pages).toBeLessThanOrEqual(AHEAD);
    }
  }, 120_000);
});
