import { buildApp } from './app';
import { configFromEnv } from './config';
import { ensureAdmin } from './seed';
import { mailConfigProblem } from './mail/mailer';
import { claimDataDir } from './ops/backup';
import { stopOnSignals } from './ops/shutdown';

// The production entry: one process serving the API and the built SPA on one port.
const config = configFromEnv();
const mailProblem = mailConfigProblem(config);
if (mailProblem) {
  console.error(`\n  Cannot start: ${mailProblem}\n`);
  process.exit(1);
}
// SQLite is one process's file: the server claims DATA_DIR while it runs, so a second server on
// the same folder and `npm run restore` refuse rather than work under it (server/ops/backup.ts).
if (!config.databaseUrl) {
  try {
    claimDataDir(config.dataDir);
  } catch (err) {
    console.error(`\n  Cannot start: ${(err as Error).message}\n`);
    process.exit(1);
  }
}
const app = await buildApp(config);
const admin = await ensureAdmin(app.db, config);
await app.listen({ port: config.port, host: config.host });

const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
// One write, so whoever reads the output (a person, a script, a test) gets the address and the
// first administrator's login together.
const lines = [
  `\n  Survey back-office is running at http://${shown}:${config.port}`,
  `  Database: ${app.dialect === 'postgres' ? 'PostgreSQL' : `SQLite in ${config.dataDir}`}`,
];
if (admin)
  lines.push(
    `\n  First administrator created (shown once):\n    email:    ${admin.email}\n    password: ${admin.password}\n`,
  );
console.log(lines.join('\n'));

// SIGTERM: /readyz turns 503, the server serves on for SHUTDOWN_DELAY_MS, then stops (server/ops/shutdown.ts).
stopOnSignals(app, config.ops);
