import { buildApp } from './app';
import { configFromEnv } from './config';
import { ensureAdmin } from './seed';
import { mailConfigProblem } from './mail/mailer';
import { claimDataDir } from './ops/backup';

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

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    // Finish the calls in flight, close the database, then leave.
    app.close().then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}
