import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';

// Online backups and restores of the SQLite database (issue 33, part 5; docs/operations.md).
//
// A backup is taken with SQLite's online backup API (better-sqlite3's db.backup) from a connection
// of its own, while the server goes on answering. Every page is copied in one step of the API, so
// the copy is the database as it was at one moment: a step of a few pages at a time would start
// over each time the server commits (the API restarts when another connection writes), which under
// a stream of answers may never end. Readers do not block writers in WAL mode, so the server is not
// held up while the step runs; it only keeps its new commits in the WAL until the step ends.
//
// A restore replaces the file while no server uses DATA_DIR: a server claims the folder for as
// long as it runs (server.pid, below), and the restore refuses while that claim is alive.

export const DB_FILE = 'survey.sqlite';
const CLAIM_FILE = 'server.pid';

export interface BackupResult {
  file: string;
  pages: number;
  bytes: number;
  ms: number;
}

/** Whether a file is a SQLite database made by this product, whole (integrity_check is ok). */
export function checkDatabaseFile(file: string): { ok: true } | { ok: false; reason: string } {
  let db: SQLite.Database | null = null;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') return { ok: false, reason: `integrity_check says: ${String(integrity)}` };
    const migrations = db
      .prepare("select count(*) as n from sqlite_master where type = 'table' and name = 'kysely_migration'")
      .get() as { n: number };
    if (migrations.n === 0)
      return { ok: false, reason: 'it is not a database of this product (no migrations table)' };
    return { ok: true };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  } finally {
    db?.close();
  }
}

/** Copies DATA_DIR's database into `file` while servers may be running; the copy is checked. */
export async function backupSqlite(
  dataDir: string,
  file: string,
  onProgress: (copiedPages: number, totalPages: number) => void = () => {},
): Promise<BackupResult> {
  const source = path.join(dataDir, DB_FILE);
  if (!fs.existsSync(source)) throw new Error(`There is no database at ${source}.`);
  const target = path.resolve(file);
  if (target === path.resolve(source))
    throw new Error('The backup cannot be written over the database itself.');
  // Written beside the target and renamed when whole and checked: a backup cut short (a full disk,
  // Ctrl+C) never leaves a file that looks like a backup.
  const partial = `${target}.partial`;
  fs.rmSync(partial, { force: true });
  const started = performance.now();
  const db = new SQLite(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const result = await db.backup(partial, {
      progress: ({ totalPages, remainingPages }) => {
        onProgress(totalPages - remainingPages, totalPages);
        return 0x7fffffff; // the rest in one step: one consistent moment (see above)
      },
    });
    onProgress(result.totalPages, result.totalPages);
    const check = checkDatabaseFile(partial);
    if (!check.ok) throw new Error(`The backup did not check out: ${check.reason}`);
    fs.renameSync(partial, target);
    return {
      file: target,
      pages: result.totalPages,
      bytes: fs.statSync(target).size,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    db.close();
    fs.rmSync(partial, { force: true });
  }
}

interface Claim {
  pid: number;
  host: string;
  startedAt: string;
}

function readClaim(dataDir: string): Claim | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, CLAIM_FILE), 'utf8')) as Claim;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The server that uses DATA_DIR now, if any. A claim left by a process that died (kill -9) is not
 * alive; one made on another host (a shared folder) is taken as alive, since it cannot be checked.
 */
export function serverUsing(dataDir: string): Claim | null {
  const claim = readClaim(dataDir);
  if (!claim || typeof claim.pid !== 'number') return null;
  if (claim.host !== os.hostname()) return claim;
  if (claim.pid === process.pid) return null;
  return alive(claim.pid) ? claim : null;
}

/** Marks DATA_DIR as used by this process until the returned function is called (or it exits). */
export function claimDataDir(dataDir: string): () => void {
  const other = serverUsing(dataDir);
  if (other)
    throw new Error(
      `Another server (process ${other.pid} on ${other.host}, started ${other.startedAt}) uses ${dataDir}. ` +
        'Stop it first, or give this one another DATA_DIR.',
    );
  const file = path.join(dataDir, CLAIM_FILE);
  const claim: Claim = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(claim));
  const release = () => {
    if (readClaim(dataDir)?.pid === process.pid) fs.rmSync(file, { force: true });
  };
  process.once('exit', release);
  return release;
}

/**
 * Puts a backup in place of DATA_DIR's database. Refused while a server uses the folder; the backup
 * is checked before anything is touched, and the database it replaces is kept beside it.
 */
export function restoreSqlite(dataDir: string, file: string): { replaced: string | null } {
  const using = serverUsing(dataDir);
  if (using)
    throw new Error(
      `A server (process ${using.pid} on ${using.host}) is using ${dataDir}. Stop it, then restore.`,
    );
  const source = path.resolve(file);
  const check = checkDatabaseFile(source);
  if (!check.ok) throw new Error(`${source} cannot be restored: ${check.reason}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const target = path.join(dataDir, DB_FILE);
  const incoming = `${target}.restoring`;
  fs.copyFileSync(source, incoming);
  let replaced: string | null = null;
  if (fs.existsSync(target)) {
    replaced = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    // Checkpoint the old database's WAL into it first, so the kept copy is whole on its own.
    const old = new SQLite(target);
    old.pragma('wal_checkpoint(TRUNCATE)');
    old.close();
    fs.renameSync(target, replaced);
  }
  // A WAL or shared-memory file left from the old database would be read as part of the new one.
  for (const suffix of ['-wal', '-shm']) fs.rmSync(target + suffix, { force: true });
  fs.renameSync(incoming, target);
  return { replaced };
}
