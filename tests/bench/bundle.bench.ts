import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { build } from 'vite';
import { chromium } from 'playwright-core';
import { startServer } from '../server/helpers';
import { ROUTES } from '../../src/views/routes';
import { Role } from '../../src/domain/roles';
import type { BenchResult } from './run';

// JavaScript per route (DESIGN.md section 7: /login ≤ 120 KB gzip). Builds the SPA for production,
// serves it with the real server, opens every route in Chromium (signed in as an administrator for
// the signed-in ones) and adds up the gzip size of every script the page loaded, including chunks
// loaded after the first paint. Service workers are blocked so precaching does not count.

export const title = 'Bundle size per route (JS loaded by the page, gzip)';

const LOGIN_BUDGET_KB = 120;

function gzipKb(file: string): number {
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length / 1024;
}

export default async function bundleBench(): Promise<BenchResult[]> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-bench-dist-'));
  const previousEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production'; // the shipped build, not a test build of React
  await build({ logLevel: 'warn', mode: 'production', build: { outDir, emptyOutDir: true } });
  process.env.NODE_ENV = previousEnv;

  const server = await startServer((c) => {
    c.staticDir = outDir;
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  const results: BenchResult[] = [];
  try {
    const admin = await server.createUser({
      role: Role.Administrator,
      organizationId: await server.createOrganization(),
    });
    const session = await server.login(admin.email);
    const auth = JSON.stringify({
      accessToken: session.accessToken,
      refreshToken: session.refreshToken,
      userId: admin.id,
    });

    const paths = ROUTES.map((r) => ({
      path: r.path === '/project' ? '/project?pid=1' : r.path,
      signedIn: !r.public,
    }));
    for (const { path: route, signedIn } of paths) {
      const context = await browser.newContext({ serviceWorkers: 'block', locale: 'ru' });
      if (signedIn) await context.addInitScript((value) => localStorage.setItem('auth', value), auth);
      const page = await context.newPage();
      const scripts = new Set<string>();
      page.on('response', (res) => {
        const url = new URL(res.url());
        if (url.origin === server.url && url.pathname.endsWith('.js')) scripts.add(url.pathname);
      });
      await page.goto(`${server.url}${route}`, { waitUntil: 'networkidle' });
      await page.waitForTimeout(300);
      const kb = [...scripts].reduce((sum, p) => sum + gzipKb(path.join(outDir, p)), 0);
      results.push({
        name: `${route}${signedIn ? '' : ' (signed out)'}`,
        value: Math.round(kb * 10) / 10,
        unit: 'KB gzip',
        budget: route === '/login' ? LOGIN_BUDGET_KB : undefined,
        note: `${scripts.size} files`,
      });
      await context.close();
    }

    const assets = fs.readdirSync(path.join(outDir, 'assets')).filter((f) => f.endsWith('.js'));
    const largest = assets
      .map((f) => ({ f, kb: gzipKb(path.join(outDir, 'assets', f)) }))
      .sort((a, b) => b.kb - a.kb)[0];
    results.push({
      name: 'largest chunk',
      value: Math.round(largest.kb * 10) / 10,
      unit: 'KB gzip',
      note: largest.f.replace(/-[\w-]{8}\.js$/, '.js'),
    });
    const all = assets.reduce((sum, f) => sum + gzipKb(path.join(outDir, 'assets', f)), 0);
    results.push({
      name: 'all JS (what the service worker precaches)',
      value: Math.round(all * 10) / 10,
      unit: 'KB gzip',
      note: `${assets.length} files`,
    });
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(outDir, { recursive: true, force: true });
  }
  return results;
}
