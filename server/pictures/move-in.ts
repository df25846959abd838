import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db';
import { PICTURE_NAME, pictureHashOf, savePictures, sniffImage } from './store';

// Before issue 33 each process kept the pictures uploaded to it under DATA_DIR/uploads. At start
// they are moved into the database, one file at a time: stored (a picture already there is left as
// it is), then the file deleted. A start interrupted half-way moves the rest at the next start, and
// once the folder is empty it is removed, so later starts do nothing. Files that are not pictures
// uploaded here (a name not made by the server, bytes that do not match their name) are left where
// they are and named in the log, for a person to look at; an upload's temporary file (`.tmp`,
// written before its rename) was never referenced and is deleted.

export interface MoveInResult {
  moved: number;
  left: string[];
}

export async function moveUploadsIn(db: Db, dataDir: string, log: FastifyBaseLogger): Promise<MoveInResult> {
  const dir = path.join(dataDir, 'uploads');
  let names: string[];
  try {
    names = (await fs.promises.readdir(dir)).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { moved: 0, left: [] };
    throw err;
  }
  let moved = 0;
  const left: string[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    if (name.endsWith('.tmp')) {
      await fs.promises.rm(file, { force: true });
      continue;
    }
    const m = PICTURE_NAME.exec(name);
    const stat = await fs.promises.stat(file);
    if (!m || !stat.isFile()) {
      left.push(name);
      continue;
    }
    const bytes = await fs.promises.readFile(file);
    const ext = sniffImage(bytes);
    if (pictureHashOf(bytes) !== m[1] || ext !== m[2]) {
      left.push(name);
      continue;
    }
    // A row the old upload wrote keeps its author and time; a file without one gets the file's time.
    await savePictures(db, [{ hash: m[1], ext, bytes }], { userId: null, at: Math.round(stat.mtimeMs) });
    await fs.promises.rm(file);
    moved++;
  }
  if (left.length === 0) await fs.promises.rmdir(dir);
  if (moved > 0) log.info({ moved }, 'pictures moved from DATA_DIR/uploads into the database');
  if (left.length > 0)
    log.warn(
      { folder: dir, files: left.slice(0, 20), count: left.length },
      'files in DATA_DIR/uploads that are not pictures uploaded here were left where they are',
    );
  return { moved, left };
}
