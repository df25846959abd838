import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { startServer, type Session, type TestServer } from '../server/helpers';
import { insertProject, saveProject } from '../server/content-helpers';
import { insertSurveyProject, surveyContent } from '../server/survey-fixtures';
import { bigProject } from '../unit/content-fixtures';
import { seedDemo, DEMO_PASSWORD } from '../../server/reports/demo';
import { Role } from '../../src/domain/roles';

// What the page benches (bundle sizes, Lighthouse) open: the production build served by the real
// server, an administrator, the demo researcher with the demo project and its report (a few hundred
// respondents), a 1 000-question project of the demo researcher, and an open survey link.
// BENCH_DIST=<dir> reuses an existing build.

export interface PageFixture {
  server: TestServer;
  dist: string;
  admin: Session;
  demo: Session;
  demoProject: number;
  bigProject: number;
  surveyLink: string;
  /** localStorage `auth` of a session, as the app stores it. */
  authOf: (s: Session) => string;
  close: () => Promise<void>;
}

export async function productionBuild(): Promise<{ dist: string; remove: boolean }> {
  if (process.env.BENCH_DIST) return { dist: process.env.BENCH_DIST, remove: false };
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-bench-dist-'));
  const previousEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production'; // the shipped build, not a test build of React
  try {
    await build({ logLevel: 'warn', mode: 'production', build: { outDir: dist, emptyOutDir: true } });
  } finally {
    process.env.NODE_ENV = previousEnv;
  }
  return { dist, remove: true };
}

export async function pageFixture(): Promise<PageFixture> {
  const { dist, remove } = await productionBuild();
  const server = await startServer((c) => {
    c.staticDir = dist;
  });
  const admin = await server.as(Role.Administrator, { organizationId: await server.createOrganization() });
  const seeded = await seedDemo(server.app.db, {
    scryptLogN: server.config.auth.scryptLogN,
    respondents: 300,
  });
  const demo = await server.login(seeded.email, DEMO_PASSWORD);
  const org = (
    await server.app.db
      .selectFrom('users')
      .select('organization_id')
      .where('id', '=', demo.user.id)
      .executeTakeFirstOrThrow()
  ).organization_id!;
  const big = await insertProject(server, org, { name: 'Thousand questions' });
  const saved = await saveProject(server, demo, big, bigProject(), 0);
  if (saved.status !== 200) throw new Error(`fixture not saved: ${saved.status}`);
  const { link } = await insertSurveyProject(server, surveyContent());
  return {
    server,
    dist,
    admin,
    demo,
    demoProject: seeded.projectId,
    bigProject: big,
    surveyLink: link,
    authOf: (s) =>
      JSON.stringify({ accessToken: s.accessToken, refreshToken: s.refreshToken, userId: s.user.id }),
    close: async () => {
      await server.close();
      if (remove) fs.rmSync(dist, { recursive: true, force: true });
    },
  };
}
