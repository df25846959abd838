import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimDataDir } from '../../server/ops/backup';
import { respondentByToken } from '../../server/repos/respondents';
import { insertRespondents, sampleContent, sampleRespondents } from '../../server/reports/sample';
import { startServer, type TestServer } from './helpers';
import { GOOD, ORDER, insertSurveyProject, surveyContent } from './survey-fixtures';

// Issue 33, part 5: `npm run backup -- <file>` takes an online SQLite backup while answers stream
// in; `npm run restore -- <file>` refuses while a server uses DATA_DIR, else restores; every answer
// acknowledged before the backup began is in the restored database, which passes integrity_check.
// (PostgreSQL's pg_dump and pg_restore: pg-backup.test.ts.)

const root = path.resolve(__dirname, '../..');
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

function runScript(script: string, args: string[], dataDir: string) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    let out = '';
    const proc = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: root,
      env: { PATH: process.env.PATH, DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc.stdout.on('data', (d) => (out += d));
    proc.stderr.on('data', (d) => (out += d));
    proc.on('exit', (code) => resolve({ code, out }));
  });
}

describe.skipIf(onPostgres)('SQLite backup and restore', () => {
  let server: TestServer;
  let pid: number;
  let link: string;
  let release: () => void;
  let closed = false;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-backup-'));
  const backupFile = path.join(work, 'backup.sqlite');

  beforeAll(async () => {
    server = await startServer();
    // This process plays the running server's part: it claims DATA_DIR as server/main.ts does.
    release = claimDataDir(server.config.dataDir);
    ({ pid, link } = await insertSurveyProject(server, surveyContent()));
    // Ballast, so that the backup takes long enough for answers to arrive while it runs.
    const ballast = await insertSurveyProject(server, sampleContent());
    await insertRespondents(server.app.db, ballast.pid, 'Q1', sampleRespondents(7, 4000, sampleContent()));
  }, 120_000);
  afterAll(async () => {
    release?.();
    if (closed) fs.rmSync(server.config.dataDir, { recursive: true, force: true });
    else await server?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('backs up while answers stream in, restores only once the server is gone, and loses no acknowledged answer', async () => {
    const acks: { token: string; questionId: string; at: number }[] = [];
    let streaming = true;
    const respondent = async () => {
      while (streaming) {
        const start = await server.call('POST', `/survey/${link}/start`, { body: {} });
        expect(start.status).toBe(200);
        const token = start.body.token as string;
        for (let i = 0; i < ORDER.length && streaming; i++) {
          const res = await server.call('POST', '/survey/answer', {
            body: { at: i, questionId: ORDER[i], reply: GOOD[ORDER[i]] },
            headers: { 'x-respondent-token': token },
          });
          expect(res.status).toBe(200);
          acks.push({ token, questionId: ORDER[i], at: Date.now() });
        }
      }
    };
    const stream = Promise.all(Array.from({ length: 8 }, respondent));
    // Some answers acknowledged before the backup begins, however slow the machine is today.
    while (acks.length < 30) await new Promise((r) => setTimeout(r, 20));

    const began = Date.now();
    const backup = await runScript('scripts/backup.ts', [backupFile], server.config.dataDir);
    const ended = Date.now();
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toMatch(/Backup written to .*integrity_check: ok/);
    await new Promise((r) => setTimeout(r, 300));
    streaming = false;
    await stream;
    // The answers really streamed in while the backup ran.
    expect(acks.filter((a) => a.at > began && a.at < ended).length).toBeGreaterThan(0);

    // Refused while a server uses DATA_DIR, and the database is left as it was.
    const dbFile = path.join(server.config.dataDir, 'survey.sqlite');
    const sizeBefore = fs.statSync(dbFile).size;
    const refused = await runScript('scripts/restore.ts', [backupFile], server.config.dataDir);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/Restore refused: A server \(process \d+/);
    expect(fs.statSync(dbFile).size).toBe(sizeBefore);

    // Which respondent each acknowledged answer belongs to, read before the server goes.
    const before = acks.filter((a) => a.at < began);
    expect(before.length).toBeGreaterThan(20);
    const ids = new Map<string, number>();
    for (const a of before)
      if (!ids.has(a.token)) ids.set(a.token, Number((await respondentByToken(server.app.db, a.token))!.id));
    // Stopped as a server stops (the test helper's close() would also delete DATA_DIR).
    await server.app.close();
    closed = true;
    release();

    const restored = await runScript('scripts/restore.ts', [backupFile], server.config.dataDir);
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).toMatch(/The database it replaced is kept as/);

    const db = new SQLite(dbFile, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const has = db.prepare(
        'select count(*) as n from respondent_answers where respondent_id = ? and question_id = ?',
      );
      const missing = before.filter(
        (a) => (has.get(ids.get(a.token), a.questionId) as { n: number }).n === 0,
      );
      expect(missing).toEqual([]);
    } finally {
      db.close();
    }

    // A server starts on the restored folder, and its report counts the restored respondents.
    const again = await startServer((c) => {
      c.dataDir = server.config.dataDir;
    });
    try {
      const admin = await again.as(1);
      const report = await again.call('GET', `/project/stats/file?pid=${pid}&type=json`, { session: admin });
      expect(report.status).toBe(200);
      const stored = await again.app.db
        .selectFrom('respondents')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('project_id', '=', pid)
        .executeTakeFirstOrThrow();
      expect(report.body.respondents.started).toBe(Number(stored.n));
      expect(report.body.respondents.started).toBeGreaterThanOrEqual(ids.size);
    } finally {
      await again.close();
    }
  }, 180_000);

  it('refuses to restore a file that is not a whole database of this product', async () => {
    const junk = path.join(work, 'junk.sqlite');
    fs.writeFileSync(junk, 'not a database');
    const res = await runScript('scripts/restore.ts', [junk], fs.mkdtempSync(path.join(work, 'empty-')));
    expect(res.code).toBe(1);
    expect(res.out).toMatch(/cannot be restored/);
  });
});
