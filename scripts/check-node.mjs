// Runs before `npm start`, `npm test` and `npm run demo`: on a Node.js older than package.json's
// "engines" the packages crash in their own ways (a native module's "Segmentation fault" on Node 20),
// so say plainly which Node is needed and how to get it, and stop. No dependencies and no syntax
// newer than Node 12, so it can speak on whatever Node runs it. `node scripts/check-node.mjs 20.20.2`
// judges that version instead of the running one (the unit test does).
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const parse = (v) =>
  String(v)
    .replace(/^v/, '')
    .split('.')
    .map((n) => Number.parseInt(n, 10) || 0)
    .concat([0, 0, 0])
    .slice(0, 3);

function compare(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/**
 * Whether `version` satisfies `range`. Only what our "engines" uses: alternatives joined by `||`, each
 * `^x.y.z` (same major, at least x.y.z) or `>=x.y.z`. Anything else is refused loudly, so the check can
 * never pass a version by misreading the range.
 */
export function satisfies(version, range) {
  const v = parse(version);
  return range.split('||').some((part) => {
    const m = /^\s*(\^|>=)\s*v?(\d+(?:\.\d+){0,2})\s*$/.exec(part);
    if (!m) throw new Error(`check-node: cannot read the engines range "${range}"`);
    const min = parse(m[2]);
    if (compare(v, min) < 0) return false;
    return m[1] === '>=' || v[0] === min[0];
  });
}

/** The range in words: "22.20 or later on the 22 line, or 24.12 or later". */
export function rangeInWords(range) {
  return range
    .split('||')
    .map((part) => {
      const m = /^\s*(\^|>=)\s*v?(\d+(?:\.\d+){0,2})\s*$/.exec(part);
      const [major, minor] = parse(m[2]);
      return m[1] === '^' ? `${major}.${minor} or later on the ${major} line` : `${major}.${minor} or later`;
    })
    .join(', or ');
}

/** What to print when `version` does not do, or null when it does. */
export function checkNode(version, range, platform = process.platform, arch = process.arch) {
  if (satisfies(version, range)) return null;
  const pkg = `node-${platform === 'win32' ? 'win' : platform}-${arch}`;
  return [
    `This project needs Node.js ${rangeInWords(range)} (package.json "engines": "${range}").`,
    `This is Node.js ${String(version).replace(/^v/, '')}, which it does not support.`,
    '',
    'Install Node.js 24 LTS (https://nodejs.org/, or `nvm install 24`), or, without touching the',
    "machine's Node, get it from the npm registry and put it first on PATH:",
    `  npm install --prefix ~/.node24 ${pkg}@24`,
    `  export PATH=~/.node24/node_modules/${pkg}/bin:$PATH`,
    'Then run `npm install` again (packages built for another Node may not load).',
  ].join('\n');
}

const main = process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1]);
if (main) {
  const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const message = checkNode(process.argv[2] || process.versions.node, pkg.engines.node);
  if (message) {
    console.error(message);
    process.exit(1);
  }
}
