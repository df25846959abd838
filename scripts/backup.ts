import { backupSqlite } from '../server/ops/backup';
import { configFromEnv } from '../server/config';

// npm run backup -- <file>: an online backup of the SQLite database under DATA_DIR, taken while the
// server runs (docs/operations.md). PostgreSQL is backed up with pg_dump (the same page).

const file = process.argv[2];
const config = configFromEnv();
if (config.databaseUrl) {
  console.error(
    'DATABASE_URL points at PostgreSQL: back it up with pg_dump, as docs/operations.md shows:\n' +
      '  pg_dump --format=custom --file=survey.dump "$DATABASE_URL"',
  );
  process.exit(2);
}
if (!file) {
  console.error('Usage: npm run backup -- <file>   (DATA_DIR selects the database, default ./data)');
  process.exit(2);
}
let shown = -1;
try {
  const result = await backupSqlite(config.dataDir, file, (copied, total) => {
    const percent = total ? Math.floor((copied / total) * 100) : 100;
    if (percent !== shown) process.stdout.write(`\r  backing up ${config.dataDir}: ${(shown = percent)} %`);
  });
  console.log(
    `\n  Backup written to ${result.file} (${(result.bytes / 1048576).toFixed(1)} MB, ${result.ms} ms); integrity_check: ok`,
  );
} catch (err) {
  console.error(`\n  Backup failed: ${(err as Error).message}`);
  process.exit(1);
}
