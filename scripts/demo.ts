// npm run demo: seeds the configured database (DATA_DIR or DATABASE_URL, as the server uses them)
// with a demo organization, a researcher, a target project using every question category and
// 10 000 respondents recorded through the survey runner's own code (server/survey/respond.ts), then
// prints how to sign in. Safe to run again: nothing is created twice.
import { sql } from 'kysely';
import { configFromEnv } from '../server/config';
import { openDatabase } from '../server/db';
import { migrateToLatest } from '../server/db/migrate';
import { seedDemo } from '../server/reports/demo';

const config = configFromEnv();
const handle = openDatabase(config);
try {
  await migrateToLatest(handle);
  // Seeding only: the server keeps SQLite's synchronous=FULL for answers it acknowledges; a demo
  // load that dies halfway is simply run again, so it need not wait for the disk on every page.
  if (handle.dialect === 'sqlite') await sql`pragma synchronous = OFF`.execute(handle.db);
  console.log(`Database: ${handle.dialect === 'postgres' ? 'PostgreSQL' : `SQLite in ${config.dataDir}`}`);
  const started = Date.now();
  const result = await seedDemo(handle.db, {
    scryptLogN: config.auth.scryptLogN,
    log: (l) => console.log(l),
  });
  const c = result.created;
  console.log(
    c.project || c.respondents > 0
      ? `Demo data written in ${((Date.now() - started) / 1000).toFixed(1)} s (${c.respondents} respondents added).`
      : 'The demo data was already there; nothing changed.',
  );
  console.log(`
  Sign in as the demo researcher:
    email:    ${result.email}
    password: ${result.password}
  Then open Reports, or go straight to /report?pid=${result.projectId}
  and the respondents one by one at /responses?pid=${result.projectId} (a few speeders,
  straight-liners and gibberish answers are among them)
  (start the server with npm start, or npm run dev, on the same DATA_DIR / DATABASE_URL).
`);
} finally {
  await handle.db.destroy();
}
