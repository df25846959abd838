import { restoreSqlite } from '../server/ops/backup';
import { configFromEnv } from '../server/config';

// npm run restore -- <file>: puts a backup made by `npm run backup` in place of DATA_DIR's SQLite
// database. Refused while a server uses DATA_DIR (docs/operations.md).

const file = process.argv[2];
const config = configFromEnv();
if (config.databaseUrl) {
  console.error(
    'DATABASE_URL points at PostgreSQL: restore with pg_restore, as docs/operations.md shows:\n' +
      '  createdb survey_restored && pg_restore --no-owner --dbname=survey_restored survey.dump',
  );
  process.exit(2);
}
if (!file) {
  console.error('Usage: npm run restore -- <file>   (DATA_DIR selects where, default ./data)');
  process.exit(2);
}
try {
  const { replaced } = restoreSqlite(config.dataDir, file);
  console.log(`  Restored ${file} into ${config.dataDir}.`);
  if (replaced) console.log(`  The database it replaced is kept as ${replaced}.`);
} catch (err) {
  console.error(`  Restore refused: ${(err as Error).message}`);
  process.exit(1);
}
