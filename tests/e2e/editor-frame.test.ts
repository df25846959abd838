import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, signIn, startApp, watchErrors } from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { getProject } from '../server/content-helpers';
import { Role } from '../../src/domain/roles';

// The editor's frame in Chromium as a new researcher meets it: a project created from the projects
// list opens with one empty questionnaire and "Add block" enabled; two blocks of five questions are
// built with the mouse only, then with the keyboard only, and saved.

const SHOTS = process.env.E2E_SHOTS;

describe('editor frame: building a questionnaire', () => {
  let server: TestServer;
  let browser: Browser;
  let researcher: Session;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    const org = await server.createOrganization('Frame Org');
    researcher = await server.as(Role.Researcher, { organizationId: org });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function newProject(
    name: string,
    width = 1440,
  ): Promise<{ page: Page; errors: string[]; pid: number }> {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.setViewportSize({ width, height: 900 });
    const errors = watchErrors(page);
    await signIn(page, server, researcher.user.email);
    await page.goto(`${server.url}/projects`);
    await page.getByRole('button', { name: 'Create project' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radio', { name: /Audience survey/ }).check();
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/project' && !!u.searchParams.get('pid'));
    const pid = Number(new URL(page.url()).searchParams.get('pid'));
    await page.getByRole('tree', { name: 'Questionnaire outline' }).waitFor();
    return { page, errors, pid };
  }

  const tool = (page: Page, id: string) => page.locator(`[data-tool="${id}"]`).first();
  const rows = (page: Page, kind: string) => page.locator(`[role="treeitem"][data-kind="${kind}"]`);

  async function savedContent(pid: number) {
    return (await getProject(server, researcher, pid)).body.content as {
      questionnaires: { blocks: { name: string; questions: { text: string }[] }[] }[];
    };
  }

  it('opens a new project with one empty questionnaire, "Add block" enabled and a hint; builds 2 × 5 with the mouse', async () => {
    const { page, errors, pid } = await newProject('Built with the mouse');
    expect(await rows(page, 'questionnaire').count()).toBe(1);
    expect(await tool(page, 'addBlock').getAttribute('aria-disabled')).toBeNull();
    await expect.poll(() => page.locator('[data-hint="empty"]').textContent()).toContain('Add block');
    expect(await tool(page, 'addQuestion').getAttribute('title')).toContain('Add a block first');

    for (let b = 1; b <= 2; b++) {
      await rows(page, 'questionnaire').click();
      await tool(page, 'addBlock').click();
      for (let q = 1; q <= 5; q++) {
        await tool(page, 'addQuestion').click();
        const row = page.locator('[role="treeitem"][aria-selected="true"]');
        await row.dblclick();
        await row.getByRole('textbox').fill(`B${b} Q${q}`);
        await row.getByRole('textbox').press('Enter');
      }
    }
    await expect.poll(() => rows(page, 'question').count()).toBe(10);
    expect(await page.locator('[data-hint="empty"]').count()).toBe(0);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/mouse-1440.png` });
    await tool(page, 'save').click();
    await expect
      .poll(() => page.locator('[role="status"][data-state]').textContent(), { timeout: 30_000 })
      .toBe('All changes saved');
    const saved = await savedContent(pid);
    expect(saved.questionnaires[0].blocks.map((b) => b.questions.map((q) => q.text))).toEqual([
      ['B1 Q1', 'B1 Q2', 'B1 Q3', 'B1 Q4', 'B1 Q5'],
      ['B2 Q1', 'B2 Q2', 'B2 Q3', 'B2 Q4', 'B2 Q5'],
    ]);
    expect(errors).toEqual([]);
  });

  it('builds 2 × 5 with the keyboard only', async () => {
    const { page, errors, pid } = await newProject('Built with the keyboard', 360);
    const tree = page.getByRole('tree', { name: 'Questionnaire outline' });
    await tree.focus();
    for (let b = 1; b <= 2; b++) {
      // From the questionnaire, Insert adds a block; from a block or question, a question.
      if (b === 2) {
        await page.keyboard.press('Home');
      }
      await page.keyboard.press(b === 1 ? 'Insert' : 'Alt+b');
      for (let q = 1; q <= 5; q++) {
        await page.keyboard.press('Insert');
        await page.keyboard.press('F2');
        await page.keyboard.type(`K${b} Q${q}`);
        await page.keyboard.press('Enter');
      }
    }
    await expect.poll(() => rows(page, 'question').count()).toBe(10);
    // Duplicate, delete and move from the keyboard too (undo would bring each back).
    await page.keyboard.press('Control+d');
    await expect.poll(() => rows(page, 'question').count()).toBe(11);
    await page.keyboard.press('Delete');
    await expect.poll(() => rows(page, 'question').count()).toBe(10);
    await page.keyboard.press('Alt+ArrowUp');
    await expect.poll(() => rows(page, 'question').nth(8).textContent()).toContain('K2 Q5');
    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(() => rows(page, 'question').nth(9).textContent()).toContain('K2 Q5');
    if (SHOTS) {
      await page.screenshot({ path: `${SHOTS}/keyboard-360.png`, fullPage: true });
    }
    // A page as narrow as a phone does not scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.keyboard.press('Control+s');
    await expect
      .poll(() => page.locator('[role="status"][data-state]').textContent(), { timeout: 30_000 })
      .toBe('All changes saved');
    const saved = await savedContent(pid);
    expect(saved.questionnaires[0].blocks.map((b) => b.questions.map((q) => q.text))).toEqual([
      ['K1 Q1', 'K1 Q2', 'K1 Q3', 'K1 Q4', 'K1 Q5'],
      ['K2 Q1', 'K2 Q2', 'K2 Q3', 'K2 Q4', 'K2 Q5'],
    ]);
    expect(errors).toEqual([]);
  });
});
