// `npm start`: builds the SPA when dist/ is missing or older than the sources, then runs the server
// in this same process (so SIGTERM reaches it and it shuts down gracefully).
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const index = path.join(root, 'dist', 'index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

const sources = [
  path.join(root, 'src'),
  path.join(root, 'public'),
  path.join(root, 'index.html'),
  path.join(root, 'vite.config.ts'),
]
  .filter((p) => fs.existsSync(p))
  .map((p) => (fs.statSync(p).isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs));
const stale = !fs.existsSync(index) || Math.max(...sources) > fs.statSync(index).mtimeMs;

if (stale && process.env.SKIP_BUILD !== '1') {
  console.log('Building the web app (first start, or the sources changed)…');
  const res = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (res.status !== 0) process.exit(res.status ?? 1);
}

process.chdir(root);
const { register } = await import('tsx/esm/api');
register();
await import('../server/main.ts');
