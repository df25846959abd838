import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

// Issue #17, item 8: with SMTP and a PUBLIC_URL that is an IP address, mail would come from
// no-reply@127.0.0.1, which mail servers refuse. The real entry point refuses to start and says
// what to set, before opening the database.

const root = path.resolve(__dirname, '../..');

function runMain(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    let output = '';
    const proc = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'survey-mail-')),
        STATIC_DIR: '',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc.stdout.on('data', (d) => (output += d));
    proc.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => proc.kill('SIGTERM'), 20_000);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

it('refuses to start with SMTP and no MAIL_FROM when PUBLIC_URL is an IP address, saying what to set', async () => {
  const res = await runMain({ PUBLIC_URL: 'http://127.0.0.1:8080', SMTP_URL: 'smtp://127.0.0.1:1' });
  expect(res.code).toBe(1);
  expect(res.output).toContain('Cannot start: MAIL_FROM is not set');
  expect(res.output).toContain('Set MAIL_FROM to an address in your domain');
}, 120_000);

it('refuses to start with a MAIL_FROM that is not an address', async () => {
  const res = await runMain({ MAIL_FROM: 'no-reply@127.0.0.1' });
  expect(res.code).toBe(1);
  expect(res.output).toContain('MAIL_FROM "no-reply@127.0.0.1" is not a valid address');
}, 120_000);
