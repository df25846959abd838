import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers';
import { routeGroups, BOOT_GROUPS } from '../../src/views/localeGroups';

// Issue 25, Lighthouse on the signed-in pages: the HTML served for a route names the chunks its
// start-up will ask for (<link rel="modulepreload">, from Vite's build manifest), so the browser
// fetches them beside the start-up script instead of after it has run. A dist laid out as Vite
// lays it out (index.html, .vite/manifest.json); tests/e2e/route-preloads.test.ts checks the real
// build against what Chromium really fetches.

let server: TestServer;
let dist: string;

const HTML =
  '<!doctype html><html><head><script type="module" crossorigin src="/assets/index-e1.js"></script>' +
  '<link rel="modulepreload" crossorigin href="/assets/client-c1.js"></head><body><div id="root"></div></body></html>';

/** A chunk per module; the i18n groups of both languages. */
function manifest() {
  const m: Record<
    string,
    { file: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] }
  > = {
    'index.html': { file: 'assets/index-e1.js', isEntry: true, imports: ['_client-c1.js'] },
    '_client-c1.js': { file: 'assets/client-c1.js' },
    '_xstate-x1.js': { file: 'assets/xstate-x1.js' },
    '_table-t1.js': { file: 'assets/table-t1.js', imports: ['_client-c1.js'] },
    'src/views/auth/startAuth.ts': { file: 'assets/startAuth-s1.js', imports: ['_xstate-x1.js'] },
    'src/views/layouts/MainLayout.tsx': { file: 'assets/MainLayout-m1.js', imports: ['index.html'] },
    'src/views/projects/ProjectsPage.tsx': {
      file: 'assets/ProjectsPage-p1.js',
      imports: ['index.html', '_table-t1.js'],
      dynamicImports: ['src/views/projects/CreateProjectForm.tsx'],
    },
    'src/views/projects/CreateProjectForm.tsx': { file: 'assets/CreateProjectForm-f1.js' },
    'src/views/auth/LoginPage.tsx': { file: 'assets/LoginPage-l1.js', imports: ['index.html'] },
    'src/views/editor/EditorPage.tsx': {
      file: 'assets/EditorPage-e1.js',
      dynamicImports: ['src/views/editor/canvas/Canvas.tsx'],
    },
    'src/views/editor/canvas/Canvas.tsx': { file: 'assets/Canvas-cy1.js' },
  };
  for (const locale of ['en', 'ru'])
    for (const g of [
      'auth',
      'common',
      'errors',
      'guides',
      'projects',
      'shell',
      'validation',
      'callbacks',
      'editor',
      'importer',
      'panels',
      'players',
      'versions',
    ])
      m[`src/i18n/${locale}/${g}.ts`] = { file: `assets/i18n-${locale}-${g}-h.js` };
  return m;
}

async function page(p: string, lang?: string) {
  const res = await fetch(server.url + p, { headers: lang ? { 'accept-language': lang } : {} });
  expect(res.status).toBe(200);
  const html = await res.text();
  const preloads = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map(
    (m) => m[1],
  );
  return { res, html, preloads };
}

const groupFiles = (locale: string, path: string, layout: 'main' | 'auth' | 'editor') =>
  [...new Set([...BOOT_GROUPS, ...routeGroups({ path, layout })])].map(
    (g) => `/assets/i18n-${locale}-${g}-h.js`,
  );

describe('the HTML of a route names its chunks', () => {
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-shell-'));
    fs.mkdirSync(path.join(dist, '.vite'));
    fs.writeFileSync(path.join(dist, 'index.html'), HTML);
    fs.writeFileSync(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(manifest()));
    server = await startServer((c) => (c.staticDir = dist));
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('names, for a signed-in page, the sign-in actor, the groups of the language, the layout and the page', async () => {
    const { res, preloads, html } = await page('/projects', 'en-US,en;q=0.9,ru;q=0.5');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('vary')).toMatch(/accept-language/i);
    expect(preloads).toEqual([
      '/assets/client-c1.js', // Vite's own, already in the built HTML
      '/assets/startAuth-s1.js',
      '/assets/xstate-x1.js',
      ...groupFiles('en', '/projects', 'main'),
      '/assets/MainLayout-m1.js',
      '/assets/ProjectsPage-p1.js',
      '/assets/table-t1.js',
    ]);
    // Lazy parts (a form opened later) are not named; the start-up's own chunks are not named twice.
    expect(html).not.toContain('CreateProjectForm');
    expect(html.match(/client-c1/g)).toHaveLength(1);
    expect(html.indexOf('<div id="root">')).toBeGreaterThan(html.lastIndexOf('modulepreload'));
  });

  it('chooses the language as the start-up does when nothing is stored: en for English browsers, else ru', async () => {
    const ru = await page('/projects/', 'de-DE,de;q=0.9,en;q=0.8');
    expect(ru.preloads.filter((f) => f.includes('i18n-')).sort()).toEqual(
      groupFiles('ru', '/projects', 'main').sort(),
    );
    const none = await page('/projects');
    expect(none.preloads.some((f) => f.includes('i18n-en'))).toBe(false);
  });

  it('does not ask a signed-out page for the sign-in actor or the main layout', async () => {
    const { preloads } = await page('/login?redirectedFrom=%2Fprojects', 'en');
    expect(preloads).toEqual([
      '/assets/client-c1.js',
      ...groupFiles('en', '/login', 'auth'),
      '/assets/LoginPage-l1.js',
    ]);
  });

  it("leaves the editor's canvas to load after the outline", async () => {
    const { preloads } = await page('/project?pid=3', 'en');
    expect(preloads).toContain('/assets/EditorPage-e1.js');
    expect(preloads).not.toContain('/assets/Canvas-cy1.js');
  });

  it('serves an unknown path the built HTML as it is', async () => {
    for (const p of ['/', '/no-such-page', '/projects/extra']) {
      const { html } = await page(p, 'en');
      expect(html).toBe(HTML);
    }
  });
});

describe('a build without a manifest', () => {
  it('is served as it is', async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-shell-'));
    fs.writeFileSync(path.join(dist, 'index.html'), HTML);
    server = await startServer((c) => (c.staticDir = dist));
    try {
      const { html } = await page('/projects', 'en');
      expect(html).toBe(HTML);
    } finally {
      await server.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});
