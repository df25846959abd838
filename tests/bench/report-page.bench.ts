import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { build } from 'vite';
import { chromium } from 'playwright-core';
import { startServer } from '../server/helpers';
import { insertProject } from '../server/content-helpers';
import type { BenchResult } from './run';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import { writeContent } from '../../server/repos/content';
import { insertRespondents, sampleContent, sampleRespondents } from '../../server/reports/sample';

// /report in Chromium (DESIGN.md 7: charts only on /report): the JavaScript that only this page
// loads (the page and uPlot), what else it shares with the app, and the time from navigation to the
// first chart drawn and to every question's chart drawn, on a project with 10 000 respondents and
// every question category. Production build; service workers blocked so precaching does not count.

export const title = 'Report page: /report JavaScript and first chart (Chromium, 10 000 respondents)';

const gzipKb = (file: string) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length / 1024;

export default async function reportPageBench(): Promise<BenchResult[]> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-bench-report-'));
  const previousEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  await build({ logLevel: 'warn', mode: 'production', build: { outDir, emptyOutDir: true } });
  process.env.NODE_ENV = previousEnv;
  const saved = process.env.TEST_DATABASE_URL;
  delete process.env.TEST_DATABASE_URL;
  const server = await startServer((c) => {
    c.staticDir = outDir;
  });
  if (saved !== undefined) process.env.TEST_DATABASE_URL = saved;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const org = await server.createOrganization();
    const session = await server.as(Role.Researcher, { organizationId: org });
    const pid = await insertProject(server, org, { status: ProjectStatus.OnRotation, name: 'Bench' });
    const content = sampleContent();
    await writeContent(server.app.db, pid, 0, content, session.user.id);
    for (let i = 0; i < 10_000; i += 2_000)
      await insertRespondents(
        server.app.db,
        pid,
        content.questionnaires[0].id,
        sampleRespondents(i, 2_000, content),
      );
    const auth = JSON.stringify({
      accessToken: session.accessToken,
      refreshToken: session.refreshToken,
      userId: session.user.id,
    });

    const firstChart: number[] = [];
    const allCharts: number[] = [];
    let scripts = new Set<string>();
    for (let run = 0; run < 5; run++) {
      const context = await browser.newContext({
        serviceWorkers: 'block',
        locale: 'ru',
        viewport: { width: 1440, height: 900 },
      });
      await context.addInitScript((value) => localStorage.setItem('auth', value), auth);
      const page = await context.newPage();
      scripts = new Set<string>();
      page.on('response', (r) => {
        const u = new URL(r.url());
        if (u.pathname.endsWith('.js')) scripts.add(u.pathname);
      });
      const start = Date.now();
      await page.goto(`${server.url}/report?pid=${pid}`);
      await page.locator('[data-chart] canvas').first().waitFor({ timeout: 30_000 });
      firstChart.push(Date.now() - start);
      const expected = content.questionnaires[0].blocks[0].questions.filter(
        (q) => q.category !== 'open',
      ).length;
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-chart] canvas').length >= n,
        expected,
        {
          timeout: 30_000,
        },
      );
      allCharts.push(Date.now() - start);
      await context.close();
    }
    const own = [...scripts].filter((s) => /ReportPage|uPlot|uplot/i.test(s));
    const sizeOf = (list: string[]) =>
      Math.round(list.reduce((sum, s) => sum + gzipKb(path.join(outDir, s)), 0) * 10) / 10;
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    return [
      {
        name: '/report: JS only this page loads (page + uPlot)',
        value: sizeOf(own),
        unit: 'KB gzip',
        note: own.map((s) => path.basename(s)).join(', '),
      },
      {
        name: '/report: all JS the page loads',
        value: sizeOf([...scripts]),
        unit: 'KB gzip',
        note: `${scripts.size} files`,
      },
      {
        name: '/report: navigation to the first chart drawn',
        value: med(firstChart),
        unit: 'ms',
        note: 'median of 5, cold browser context each',
      },
      {
        name: '/report: navigation to all 12 charts drawn',
        value: med(allCharts),
        unit: 'ms',
        note: 'median of 5',
      },
    ];
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}
