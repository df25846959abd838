import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { axeFull, axeLines, launchBrowser, signIn, startApp, watchErrors } from './helpers';
import { TEST_PASSWORD, type Session, type TestServer } from '../server/helpers';
import { completeContent, insertProject, saveProject } from '../server/content-helpers';
import { setStatus } from '../server/projects.helpers';
import { seedDemo } from '../../server/reports/demo';
import { newBlock, newQuestion, newQuestionnaire, newAnswer } from '../../src/domain/content/factory';
import { QUESTION_CATEGORIES } from '../../src/domain/content/model';
import { ProjectStatus, type ProjectStatusId } from '../../src/domain/projects';
import { Role } from '../../src/domain/roles';

// Screens the first audits did not visit (issue #26): the editor in each status and role that opens
// it (a read-only project's outline carried aria-readonly, which a tree may not), and the report with
// a card of every question category (a number question had two regions of the same name), at 1 440
// and 360 px; axe's full rule set, serious and critical, plus landmark-unique (moderate, but two
// regions of one name leave a screen reader's landmark list ambiguous). And the outline's rows: the
// text of every row of one level starts at the same x, however long its text.

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000 });

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function audit(page: Page, where: string): Promise<string[]> {
  await poll(() =>
    page.evaluate(
      () =>
        document
          .getAnimations()
          .filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity).length,
    ),
  ).toBe(0);
  const found = await axeFull(page, ['serious', 'critical', 'moderate']);
  return axeLines(found.filter((f) => f.impact !== 'moderate' || f.id === 'landmark-unique')).map(
    (l) => `${where}: ${l}`,
  );
}

async function pageAt(width: number, email: string, password = TEST_PASSWORD) {
  const context = await browser.newContext({
    locale: 'en',
    viewport: { width, height: 900 },
    bypassCSP: true,
  });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await signIn(page, server, email, password);
  return { page, errors, close: () => context.close() };
}

describe('the editor in every status and role that opens it, at 1 440 and 360 px', () => {
  let researcher: Session;
  let moderator: Session;
  let admin: Session;
  let moderatorVk: Session;
  let demo: Session;
  const projects = new Map<string, number>();

  beforeAll(async () => {
    const org = await server.createOrganization('Audit Org');
    researcher = await server.as(Role.Researcher, { organizationId: org });
    moderator = await server.as(Role.Moderator);
    admin = await server.as(Role.Administrator);
    moderatorVk = await server.as(Role.ModeratorVK);
    demo = await server.as(Role.DemoResearcher, { organizationId: org });
    const make = async (name: string, status: ProjectStatusId) => {
      const pid = await insertProject(server, org, { name });
      expect((await saveProject(server, researcher, pid, completeContent(), 0)).status).toBe(200);
      if (status !== ProjectStatus.Created) await setStatus(server, pid, status);
      projects.set(name, pid);
    };
    await make('Created', ProjectStatus.Created);
    await make('On moderation', ProjectStatus.OnModeration);
    await make('Rejected', ProjectStatus.Rejected);
    await make('On rotation', ProjectStatus.OnRotation);
    await make('On moderation VK', ProjectStatus.OnModerationVK);
    await make('Paused', ProjectStatus.Paused);
  });

  const cases: [string, () => Session, string][] = [
    ['Researcher', () => researcher, 'Created'],
    ['Researcher', () => researcher, 'Rejected'],
    ['Researcher (read-only)', () => researcher, 'On moderation'],
    ['Researcher (read-only)', () => researcher, 'On rotation'],
    ['Moderator', () => moderator, 'On moderation'],
    ['Administrator', () => admin, 'Created'],
    ['Administrator', () => admin, 'On moderation'],
    ['Administrator', () => admin, 'Paused'],
    ['Moderator VK', () => moderatorVk, 'On moderation VK'],
    ['Demo researcher', () => demo, 'Created'],
  ];

  for (const width of [1440, 360])
    it(`at ${width} px: no serious or critical finding, no two landmarks of one name`, async () => {
      const findings: string[] = [];
      for (const [who, session, status] of cases) {
        const { page, errors, close } = await pageAt(width, session().user.email);
        await page.goto(`${server.url}/project?pid=${projects.get(status)}`);
        await page.locator('[role="treeitem"][data-kind="question"]').first().waitFor({ state: 'attached' });
        if (status !== 'Created' && status !== 'Rejected')
          await page.locator('[data-readonly-banner]').waitFor();
        findings.push(...(await audit(page, `${who} · ${status} @${width}`)));
        expect(errors).toEqual([]);
        await close();
      }
      expect(findings.join('\n')).toBe('');
    }, 300_000);
});

describe('the report with a card of every question category (the demo questionnaire)', () => {
  for (const width of [1440, 360])
    it(`at ${width} px: no serious or critical finding, no two landmarks of one name`, async () => {
      const demo = await seedDemo(server.app.db, { scryptLogN: 10, respondents: 40, concurrency: 2 });
      const { page, errors, close } = await pageAt(width, demo.email, demo.password);
      await page.goto(`${server.url}/report?pid=${demo.projectId}`);
      await page.locator('#report').waitFor();
      await page.locator('[data-counter]').first().waitFor();
      await poll(() => page.locator('article[data-question]').count()).toBe(QUESTION_CATEGORIES.length);
      const findings = await audit(page, `/report @${width}`);
      if (width === 360) await page.screenshot({ path: '/tmp/report-every-card-360.png' });
      expect(findings.join('\n')).toBe('');
      expect(errors).toEqual([]);
      await close();
    }, 300_000);
});

describe('the outline lines up', () => {
  it('every row of one level starts its text at the same x, whatever its length (1 440 px)', async () => {
    const org = await server.createOrganization('Outline Org');
    const owner = await server.as(Role.Researcher, { organizationId: org });
    const long =
      'On a scale from one to ten, how likely are you to recommend our game to a friend or a colleague who also plays on a phone?';
    const content = completeContent();
    content.questionnaires = [
      newQuestionnaire({
        blocks: [
          newBlock({
            questions: [
              newQuestion({ text: long, answers: [newAnswer({ text: 'Yes' })] }),
              newQuestion({ text: 'Short?', category: 'open' }),
              newQuestion({ text: `${long} ${long}`, category: 'matrix' }),
              newQuestion({ text: 'Age', category: 'fromTo' }),
            ],
          }),
          newBlock({
            name: 'A second block with a rather long name that will not fit in the outline at all',
          }),
        ],
      }),
    ];
    const pid = await insertProject(server, org, { name: 'Outline' });
    expect((await saveProject(server, owner, pid, content, 0)).status).toBe(200);
    const { page, errors, close } = await pageAt(1440, owner.user.email);
    await page.goto(`${server.url}/project?pid=${pid}`);
    await poll(() => page.locator('[role="treeitem"][data-kind="question"]').count()).toBe(4);
    await page.screenshot({
      path: '/tmp/outline-rows-1440.png',
      clip: { x: 0, y: 0, width: 400, height: 400 },
    });
    const lefts = async (level: number) =>
      page.locator(`[role="treeitem"][aria-level="${level}"]`).evaluateAll((rows) =>
        rows.map((r) => {
          const text = r.querySelector('[data-row-text]') ?? r.children[1];
          return Math.round(text!.getBoundingClientRect().left);
        }),
      );
    for (const level of [2, 3]) {
      const xs = await lefts(level);
      expect(xs.length, `rows of level ${level}`).toBeGreaterThan(1);
      expect(new Set(xs).size, `text left edges of level ${level}: ${xs.join(', ')}`).toBe(1);
    }
    // And the arrow's slot keeps its width beside a long text.
    const arrows = await page
      .locator('[role="treeitem"][aria-level="3"] > span[aria-hidden="true"]')
      .evaluateAll((s) => s.map((e) => Math.round(e.getBoundingClientRect().width)));
    expect(new Set(arrows)).toEqual(new Set([16]));
    expect(errors).toEqual([]);
    await close();
  });
});
