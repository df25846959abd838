import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axeFull, axeLines, launchBrowser, signIn, startApp, watchErrors } from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { completeContent, getProject, insertProject, saveProject } from '../server/content-helpers';
import { Role } from '../../src/domain/roles';

// Two people, one questionnaire (issue #16), in Chromium: two browser contexts edit the same
// project, one of them offline for a while; disjoint edits merge with no prompt; a true conflict
// shows only the items at stake; the history panel restores an old version, and undo brings the
// current one back.

describe('merging and version history in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let org: number;
  let anna: Session;
  let boris: Session;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    org = await server.createOrganization('Merge Org');
    anna = await server.as(Role.Researcher, { organizationId: org });
    boris = await server.as(Role.Researcher, { organizationId: org });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function project(name: string) {
    const pid = await insertProject(server, org, { name });
    expect((await saveProject(server, anna, pid, completeContent(), 0)).status).toBe(200);
    return pid;
  }
  async function open(
    who: Session,
    pid: number,
  ): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    // CSP bypassed only so the accessibility audit can inject axe-core.
    const context = await browser.newContext({
      locale: 'en',
      viewport: { width: 1280, height: 800 },
      bypassCSP: true,
    });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, server, who.user.email);
    await page.goto(`${server.url}/project?pid=${pid}`);
    await expectStatus(page, 'All changes saved');
    return { context, page, errors };
  }
  const status = (page: Page) => page.locator('[role="status"][data-state]');
  async function expectStatus(page: Page, text: string) {
    await expect.poll(() => status(page).textContent(), { timeout: 30_000 }).toBe(text);
  }
  const questionRow = (page: Page, n: number) =>
    page.locator('[role="treeitem"][data-kind="question"]').nth(n - 1);
  /** Gives question n a text through the outline (double-click renames in place). */
  async function reword(page: Page, n: number, text: string) {
    await questionRow(page, n).dblclick();
    const field = page.getByRole('textbox', { name: /New name/ });
    await field.fill(text);
    await field.press('Enter');
    await expect.poll(() => questionRow(page, n).textContent()).toContain(text);
  }
  const questionText = (page: Page, n: number) => questionRow(page, n).textContent();
  const serverState = async (pid: number) => {
    const res = await getProject(server, anna, pid);
    return {
      version: res.body.version as number,
      texts: (res.body.content.questionnaires[0].blocks[0].questions as { text: string }[]).map(
        (q) => q.text,
      ),
    };
  };

  it('merges disjoint edits of two people, one of them offline, with no prompt', async () => {
    const pid = await project('Two editors');
    const a = await open(anna, pid);
    const b = await open(boris, pid);

    // Anna works offline: her save waits for the network.
    await a.context.setOffline(true);
    await reword(a.page, 1, 'How old are you, in years?');
    await a.page.getByRole('button', { name: 'Save project' }).click();
    await expectStatus(a.page, 'Offline: the save waits for the network and will retry by itself');

    // Boris rewords the other question and saves first.
    await reword(b.page, 2, 'Anything else to tell us?');
    await b.page.getByRole('button', { name: 'Save project' }).click();
    await expectStatus(b.page, 'All changes saved');
    expect((await serverState(pid)).version).toBe(2);

    // Anna comes back: her save meets Boris's version, merges, and lands without asking.
    await a.context.setOffline(false);
    await expectStatus(a.page, 'All changes saved');
    expect(await serverState(pid)).toEqual({
      version: 3,
      texts: ['How old are you, in years?', 'Anything else to tell us?'],
    });
    expect(await a.page.getByRole('alertdialog').count()).toBe(0);
    const notice = a.page
      .getByRole('status')
      .filter({ hasText: 'Changes from the server merged with yours' });
    await expect.poll(() => notice.count()).toBe(1);
    expect(await notice.getByRole('listitem').allTextContents()).toEqual([
      'Question changed: Anything else to tell us?',
    ]);
    expect(await questionText(a.page, 2)).toContain('Anything else to tell us?');
    expect(axeLines(await axeFull(a.page))).toEqual([]);
    await a.page.screenshot({ path: '/tmp/merge-notice.png', fullPage: true });
    await notice.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => notice.count()).toBe(0);
    expect([...a.errors, ...b.errors]).toEqual([]);
    await a.context.close();
    await b.context.close();
  });

  it('shows only the items at stake in a true conflict, with a choice per item; the rest is merged', async () => {
    const pid = await project('Same question');
    const a = await open(anna, pid);
    const b = await open(boris, pid);
    await reword(b.page, 1, 'Boris: your age?');
    await b.page.getByRole('button', { name: 'Save project' }).click();
    await expectStatus(b.page, 'All changes saved');

    await reword(a.page, 1, 'Anna: your age?');
    await reword(a.page, 2, 'Anna: anything else?');
    await a.page.getByRole('button', { name: 'Save project' }).click();
    const dialog = a.page.getByRole('alertdialog', {
      name: 'The same items were changed by you and on the server',
    });
    await dialog.waitFor();
    // Only question 1 is at stake; Anna's edit of question 2 is merged already.
    const items = dialog.getByRole('group');
    expect(await items.count()).toBe(1);
    expect(
      await items
        .first()
        .getByRole('radio', { name: /Your version/ })
        .isChecked(),
    ).toBe(true);
    expect(await items.first().textContent()).toContain('Anna: your age?');
    expect(await items.first().textContent()).toContain('Boris: your age?');
    expect(axeLines(await axeFull(a.page))).toEqual([]);
    await a.page.setViewportSize({ width: 360, height: 800 });
    await a.page.screenshot({ path: '/tmp/merge-conflict-360.png', fullPage: true });
    await a.page.setViewportSize({ width: 1440, height: 900 });
    await a.page.screenshot({ path: '/tmp/merge-conflict-1440.png', fullPage: true });
    // Nothing is saved while Anna decides.
    expect((await serverState(pid)).texts).toEqual(['Boris: your age?', 'Anything else?']);

    await items
      .first()
      .getByRole('radio', { name: /Server version/ })
      .check();
    await dialog.getByRole('button', { name: 'Apply and save' }).click();
    await expectStatus(a.page, 'All changes saved');
    expect(await serverState(pid)).toEqual({
      version: 3,
      texts: ['Boris: your age?', 'Anna: anything else?'],
    });
    await expect.poll(() => questionText(a.page, 1)).toContain('Boris: your age?');
    expect([...a.errors, ...b.errors]).toEqual([]);
    await a.context.close();
    await b.context.close();
  });

  it('restores an old version from the history as one edit, saved like any other; undo brings the current back', async () => {
    const pid = await project('History');
    const v2 = (await getProject(server, anna, pid)).body.content;
    v2.questionnaires[0].blocks[0].questions[0].text = 'Second wording';
    expect((await saveProject(server, boris, pid, v2, 1)).status).toBe(200);

    const a = await open(anna, pid);
    await a.page.getByRole('tab', { name: 'History' }).click();
    const history = a.page.getByRole('region', { name: 'Version history' });
    const versions = history.getByRole('list', { name: 'Project versions' });
    await expect.poll(() => versions.locator(':scope > li').count()).toBe(2);
    const second = versions.locator('li[data-version="2"]');
    expect(await second.textContent()).toContain('Question changed: Second wording');
    expect(await second.textContent()).toContain('(current)');

    // Compare version 1 with the content on screen.
    const first = versions.locator('li[data-version="1"]');
    await first.getByRole('button', { name: 'Compare version 1 with the current content' }).click();
    await expect
      .poll(() => first.getByTestId('version-diff').locator(':scope > li > p').allTextContents())
      .toEqual(['Changed (Text): Question: Second wording']);
    // The wording then and now (issue #26; tests/e2e/history-compare.test.ts shows it in full).
    expect(await first.getByTestId('version-diff').locator('[data-field="text"] dd').textContent()).toBe(
      'removed: How old are you?added: Second wording',
    );
    await a.page.screenshot({ path: '/tmp/history-1440.png', fullPage: true });

    await first.getByRole('button', { name: 'Restore version 1' }).click();
    await expect.poll(() => questionText(a.page, 1)).toContain('How old are you?');
    await expectStatus(a.page, 'Unsaved changes');
    await a.page.getByRole('button', { name: 'Save project' }).click();
    await expectStatus(a.page, 'All changes saved');
    expect(await serverState(pid)).toEqual({ version: 3, texts: ['How old are you?', 'Anything else?'] });
    // The list follows the save.
    await expect.poll(() => versions.locator(':scope > li').count()).toBe(3);

    await a.page.getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(() => questionText(a.page, 1)).toContain('Second wording');
    await a.page.getByRole('button', { name: 'Save project' }).click();
    await expectStatus(a.page, 'All changes saved');
    expect(await serverState(pid)).toEqual({ version: 4, texts: ['Second wording', 'Anything else?'] });
    expect(axeLines(await axeFull(a.page))).toEqual([]);
    expect(a.errors).toEqual([]);
    await a.context.close();
  });
});
