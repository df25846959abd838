import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext, signIn, startApp, watchErrors } from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { completeContent, getProject, insertProject, saveProject } from '../server/content-helpers';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';

// The editor's core in Chromium through /project?pid=…: edits go through the editor machine, the
// draft lives in the browser's IndexedDB across a closed tab, a save with the network off waits
// and says so, and lands on the server when the network returns.

describe('project editor in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let org: number;
  let researcher: Session;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    org = await server.createOrganization('Editor Org');
    researcher = await server.as(Role.Researcher, { organizationId: org });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function project(name: string, status: number = ProjectStatus.Created) {
    const pid = await insertProject(server, org, { name });
    expect((await saveProject(server, researcher, pid, completeContent(), 0)).status).toBe(200);
    if (status !== ProjectStatus.Created)
      await server.app.db.updateTable('projects').set({ status }).where('id', '=', pid).execute();
    return pid;
  }
  async function signedIn(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, server, researcher.user.email);
    return { context, page, errors };
  }
  const status = (page: Page) => page.locator('[role="status"][data-state]');
  const questionRow = (page: Page, n: number) =>
    page.locator('[role="treeitem"][data-kind="question"]').nth(n - 1);
  /** Gives question n a text through the outline (double-click renames in place). */
  async function setText(page: Page, n: number, text: string) {
    await questionRow(page, n).dblclick();
    const field = page.getByRole('textbox', { name: /New name/ });
    await field.fill(text);
    await field.press('Enter');
  }
  async function expectStatus(page: Page, text: string) {
    await expect.poll(() => status(page).textContent(), { timeout: 30_000 }).toBe(text);
  }
  /** The draft of a project as the page's IndexedDB holds it. */
  function storedDraft(page: Page, pid: number) {
    return page.evaluate(
      (pid) =>
        new Promise<{ dirty: boolean; texts: string[]; rows: string[] } | null>((resolve, reject) => {
          const open = indexedDB.open('survey-backoffice');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            const tx = db.transaction(['drafts', 'changeLog'], 'readonly');
            const draft = tx.objectStore('drafts').get(pid);
            const rows = tx.objectStore('changeLog').index('pid').getAll(pid);
            tx.oncomplete = () => {
              db.close();
              const d = draft.result;
              resolve(
                d
                  ? {
                      dirty: d.dirty,
                      texts: JSON.parse(d.content).questionnaires.flatMap(
                        (q: { blocks: { questions: { text: string }[] }[] }) =>
                          q.blocks.flatMap((b) => b.questions.map((x) => x.text)),
                      ),
                      rows: rows.result.map((r: { code: string }) => r.code),
                    }
                  : null,
              );
            };
          };
        }),
      pid,
    );
  }
  const serverTexts = async (pid: number) => {
    const res = await getProject(server, researcher, pid);
    return {
      version: res.body.version as number,
      texts: (res.body.content.questionnaires[0].blocks[0].questions as { text: string }[]).map(
        (q) => q.text,
      ),
    };
  };

  it('keeps the draft across a closed tab, waits offline, and lands the save when the network returns', async () => {
    const pid = await project('Offline first');
    const { context, page, errors } = await signedIn();
    await page.goto(`${server.url}/project?pid=${pid}`);
    await page.getByRole('heading', { name: 'Offline first' }).waitFor();
    await expectStatus(page, 'All changes saved');
    await expect.poll(() => page.locator('[data-source]').getAttribute('data-source')).toBe('server');

    // Edit through the machine: add a question and give it a text.
    await page.getByRole('button', { name: 'Add question', exact: true }).click();
    await expectStatus(page, 'Unsaved changes');
    await setText(page, 3, 'Which device do you play on?');
    await expect
      .poll(() => storedDraft(page, pid))
      .toEqual({
        dirty: true,
        texts: ['How old are you?', 'Anything else?', 'Which device do you play on?'],
        rows: ['005', '008'],
      });

    // Close the tab and open the project again in a new one: the draft is there and we are told.
    await page.close();
    const again = await context.newPage();
    const errors2 = watchErrors(again);
    await again.goto(`${server.url}/project?pid=${pid}`);
    await expect
      .poll(() => again.locator('[data-source]').getAttribute('data-source'), { timeout: 30_000 })
      .toBe('draft');
    await expect.poll(() => again.getByText('Restored your unsaved draft').count()).toBe(1);
    await expectStatus(again, 'Unsaved changes');
    expect(await questionRow(again, 3).textContent()).toContain('Which device do you play on?');
    await again.getByRole('tab', { name: 'Changes (2)' }).click();
    await expect.poll(() => again.getByRole('list', { name: 'Unsaved changes (2)' }).count()).toBe(1);

    // Network off: the save waits and says so; nothing reaches the server.
    await context.setOffline(true);
    await again.getByRole('button', { name: 'Save project' }).click();
    await expectStatus(again, 'Offline: the save waits for the network and will retry by itself');
    expect((await serverTexts(pid)).version).toBe(1);

    // Back online: the save lands by itself.
    await context.setOffline(false);
    await expectStatus(again, 'All changes saved');
    expect(await serverTexts(pid)).toEqual({
      version: 2,
      texts: ['How old are you?', 'Anything else?', 'Which device do you play on?'],
    });
    await expect.poll(() => storedDraft(again, pid)).toMatchObject({ dirty: false, rows: [] });
    expect([...errors, ...errors2]).toEqual([]);
    await context.close();
  });

  it('undoes and redoes, and on a conflict shows the item at stake until the user chooses', async () => {
    const pid = await project('Conflicted');
    const { context, page, errors } = await signedIn();
    await page.goto(`${server.url}/project?pid=${pid}`);
    await expectStatus(page, 'All changes saved');
    await questionRow(page, 2).click();
    await page.getByRole('tree').press('Delete');
    await expect.poll(() => questionRow(page, 2).count()).toBe(0);
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(() => questionRow(page, 2).textContent()).toContain('Anything else?');
    await page.getByRole('button', { name: 'Redo', exact: true }).click();
    await expect.poll(() => questionRow(page, 2).count()).toBe(0);

    // Someone else rewords the question I deleted, meanwhile.
    const theirs = (await getProject(server, researcher, pid)).body.content;
    theirs.questionnaires[0].blocks[0].questions[1].text = 'Their wording';
    expect((await saveProject(server, researcher, pid, theirs, 1)).status).toBe(200);
    await page.getByRole('button', { name: 'Save project' }).click();
    const dialog = page.getByRole('alertdialog', {
      name: 'The same items were changed by you and on the server',
    });
    await dialog.waitFor();
    expect(await dialog.getByRole('listitem').count()).toBe(1);
    expect(await dialog.getByText('You deleted it; it was changed on the server').count()).toBe(1);
    // Nothing was overwritten while the user decides.
    expect((await serverTexts(pid)).texts).toEqual(['How old are you?', 'Their wording']);
    await dialog.getByRole('button', { name: 'Apply and save' }).click();
    await expectStatus(page, 'All changes saved');
    expect(await serverTexts(pid)).toEqual({ version: 3, texts: ['How old are you?'] });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('imports from a list, and says which line failed', async () => {
    const pid = await project('Imported');
    const { context, page } = await signedIn();
    await page.goto(`${server.url}/project?pid=${pid}`);
    await expectStatus(page, 'All changes saved');
    await page.getByRole('button', { name: 'Import from list' }).click();
    const box = page.getByLabel('Text with the list of questions');
    await box.fill('1. Which genre? [weird]\n- RPG');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: 'Failed to process input!' }).textContent())
      .toBe('Failed to process input! Line 1: unknown marker in square brackets');
    await box.fill('1. Which genre? [many]\n- RPG\n- Strategy');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect.poll(() => questionRow(page, 3).textContent()).toContain('Which genre?');
    await page.getByRole('button', { name: 'Save project' }).click();
    await expectStatus(page, 'All changes saved');
    expect((await serverTexts(pid)).texts).toEqual(['How old are you?', 'Anything else?', 'Which genre?']);
    await context.close();
  });

  it('opens a project sent to moderation read-only, every editing command disabled with the reason', async () => {
    const pid = await project('Sent away', ProjectStatus.OnModeration);
    const { context, page, errors } = await signedIn();
    await page.goto(`${server.url}/project?pid=${pid}`);
    await expectStatus(page, 'View only');
    expect(await page.locator('[data-readonly-banner]').textContent()).toBe(
      'View only. Not editable: On moderation',
    );
    for (const id of ['undo', 'redo', 'import', 'save', 'addQuestionnaire', 'addBlock', 'addQuestion'])
      expect(await page.locator(`[data-tool="${id}"]`).getAttribute('aria-disabled')).toBe('true');
    expect(await page.locator('[data-tool="addBlock"]').getAttribute('title')).toBe(
      'Add block: Not editable: On moderation',
    );
    // Renaming in the outline is not offered.
    await questionRow(page, 1).dblclick();
    expect(await page.getByRole('textbox', { name: /New name/ }).count()).toBe(0);
    // The selected question's panel says it has no picture, with no drop zone to drop one on.
    await page.getByText('No picture', { exact: true }).first().waitFor();
    expect(await page.locator('[data-picture-field]').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
