import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { configFromEnv, type Config } from '../../server/config';
import { openDatabase } from '../../server/db';
import { migrationsFor } from '../../server/db/migrations';
import { API, createPgDatabase } from './helpers';

// Upgrading a server that kept pictures under DATA_DIR/uploads (before migration 022): at its first
// start the pictures go into the database and the folder goes away; a start interrupted half-way
// finishes at the next; files that are not this server's pictures stay, named in the log.

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
const hashOf = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A DATA_DIR and database as release 019 left them: pictures' rows without bytes, files on the disk. */
async function oldRelease(
  files: Record<string, Buffer>,
  rows: { hash: string; ext: string; size: number }[],
) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-move-in-'));
  const pg = process.env.TEST_DATABASE_URL ? await createPgDatabase(process.env.TEST_DATABASE_URL) : null;
  cleanups.push(async () => {
    await pg?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const handle = openDatabase({ databaseUrl: pg?.url ?? null, dataDir });
  const migrator = new Migrator({
    db: handle.db,
    provider: { getMigrations: async () => migrationsFor(handle.dialect) },
  });
  const { error } = await migrator.migrateTo('019-dropoff-indexes');
  if (error) throw error;
  for (const r of rows)
    await handle.db
      .insertInto('pictures')
      .values({ ...r, created_at: 1_700_000_000_000, created_by: null } as never)
      .execute();
  await handle.db.destroy();
  fs.mkdirSync(path.join(dataDir, 'uploads'));
  for (const [name, bytes] of Object.entries(files))
    fs.writeFileSync(path.join(dataDir, 'uploads', name), bytes);
  const config = configFromEnv({});
  Object.assign(config, { dataDir, databaseUrl: pg?.url ?? null, staticDir: null });
  return config;
}

async function start(config: Config) {
  const warnings: string[] = [];
  const app = await buildApp(config, {
    logger: {
      level: 'warn',
      stream: { write: (line: string) => warnings.push(line) },
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  cleanups.push(() => app.close());
  const get = (name: string) => fetch(`http://127.0.0.1:${port}${API}/pictures/${name}`);
  return { app, get, warnings };
}

it('moves the pictures of DATA_DIR/uploads into the database at start, then removes the folder', async () => {
  const png = `${hashOf(PNG)}.png`;
  const gif = `${hashOf(GIF)}.gif`;
  // The PNG has its row (uploaded by 019); the GIF's row was never written (a crash after the file).
  const config = await oldRelease({ [png]: PNG, [gif]: GIF, [`${png}.1a2b3c.tmp`]: PNG.subarray(0, 4) }, [
    { hash: hashOf(PNG), ext: 'png', size: PNG.length },
  ]);
  const { app, get } = await start(config);
  expect(fs.existsSync(path.join(config.dataDir, 'uploads'))).toBe(false);
  expect(fs.readdirSync(config.dataDir).filter((f) => !f.startsWith('survey.sqlite'))).toEqual([]);
  for (const [name, bytes] of [
    [png, PNG],
    [gif, GIF],
  ] as const) {
    const res = await get(name);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  }
  const rows = await app.db.selectFrom('pictures').select(['hash', 'created_at']).orderBy('hash').execute();
  expect(rows).toHaveLength(2);
  // The row 019 wrote keeps its time.
  expect(Number(rows.find((r) => r.hash === hashOf(PNG))!.created_at)).toBe(1_700_000_000_000);
  await app.close();
  cleanups.pop();

  // The next start finds nothing to do, and the pictures are still served.
  const again = await start(config);
  expect((await again.get(png)).status).toBe(200);
  expect(await again.app.db.selectFrom('pictures').select('hash').execute()).toHaveLength(2);
});

it('finishes a move interrupted half-way, and leaves files that are not its pictures, naming them', async () => {
  const png = `${hashOf(PNG)}.png`;
  const gif = `${hashOf(GIF)}.gif`;
  const liar = `${'a'.repeat(64)}.png`;
  const config = await oldRelease(
    { [png]: PNG, [gif]: GIF, [liar]: PNG, 'notes.txt': Buffer.from('hello') },
    [
      { hash: hashOf(PNG), ext: 'png', size: PNG.length },
      { hash: hashOf(GIF), ext: 'gif', size: GIF.length },
    ],
  );
  const first = await start(config);
  // Interrupted: the GIF's bytes are in, but its file is back as if the process died before deleting it.
  fs.writeFileSync(path.join(config.dataDir, 'uploads', gif), GIF);
  expect(first.warnings.join('')).toContain('notes.txt');
  expect(first.warnings.join('')).toContain(liar);
  await first.app.close();
  cleanups.pop();

  const second = await start(config);
  expect(fs.readdirSync(path.join(config.dataDir, 'uploads')).sort()).toEqual([liar, 'notes.txt'].sort());
  expect((await second.get(gif)).status).toBe(200);
  expect((await second.get(png)).status).toBe(200);
  // A file whose bytes are not what its name says is not served under that name.
  expect((await second.get(liar)).status).toBe(404);
  expect(await second.app.db.selectFrom('pictures').select('hash').execute()).toHaveLength(2);
});

it('serves a picture whose row came from before 022 once its bytes are uploaded again', async () => {
  const config = await oldRelease({}, [{ hash: hashOf(PNG), ext: 'png', size: PNG.length }]);
  // The file stayed on another machine: the row is there, the bytes are not.
  const { app, get } = await start(config);
  expect((await get(`${hashOf(PNG)}.png`)).status).toBe(404);
  const { savePictures } = await import('../../server/pictures/store');
  await savePictures(app.db, [{ hash: hashOf(PNG), ext: 'png', bytes: PNG }], {
    userId: null,
    at: Date.now(),
  });
  const res = await get(`${hashOf(PNG)}.png`);
  expect(res.status).toBe(200);
  expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
});
