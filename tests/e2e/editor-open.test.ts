import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, signIn, startApp, watchErrors } from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { completeContent, getProject, insertProject, saveProject } from '../server/content-helpers';
import { Role } from '../../src/domain/roles';

// Opening /project straight from its address: the editor asks for the project and its draft while
// the app itself loads (src/views/editor/prefetch.ts). Whatever the server saved meanwhile, the page
// shows the server's version of the moment it was opened, a refresh reads again, and a draft based on
// an older version is merged with the newer one, not shown instead of it.

describe('opening the editor straight from its address', () => {
  let server: TestServer;
  let browser: Browser;
  let researcher: Session;
  let org: number;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    org = await server.createOrganization('Open Org');
    researcher = await server.as(Role.Researcher, { organizationId: org });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const row = (page: Page, n: number) => page.locator('[role="treeitem"][data-kind="question"]').nth(n - 1);
  const rowText = (page: Page, n: number) => row(page, n).textContent();
  const version = (page: Page) => page.getByText(/^Version \d+$/).textContent();
  /** Someone else saves question n's text on the server; answers the new version. */
  async function theyReword(pid: number, n: number, text: string) {
    const res = await getProject(server, researcher, pid);
    const content = res.body.content;
    content.questionnaires[0].blocks[0].questions[n - 1].text = text;
    const saved = await saveProject(server, researcher, pid, content, res.body.version as number);
    expect(saved.status).toBe(200);
    return saved.body.version as number;
  }
  const serverTexts = async (pid: number) =>
    (
      (await getProject(server, researcher, pid)).body.content.questionnaires[0].blocks[0].questions as {
        text: string;
      }[]
    ).map((q) => q.text);
  /** Whether the page's IndexedDB holds an unsaved draft of the project. */
  const dirtyDraft = (page: Page, pid: number) =>
    page.evaluate(
      (pid) =>
        new Promise<boolean>((resolve, reject) => {
          const open = indexedDB.open('survey-backoffice');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            const get = db.transaction('drafts', 'readonly').objectStore('drafts').get(pid);
            get.onsuccess = () => {
              db.close();
              resolve(!!get.result?.dirty);
            };
          };
        }),
      pid,
    );

  it('shows the server version of the moment, reads again on refresh, and merges a draft based on an older one', async () => {
    const pid = await insertProject(server, org, { name: 'Opened straight' });
    expect((await saveProject(server, researcher, pid, completeContent(), 0)).status).toBe(200);
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, server, researcher.user.email);

    await page.goto(`${server.url}/project?pid=${pid}`);
    await expect.poll(() => rowText(page, 2)).toContain('Anything else?');
    expect(await version(page)).toBe('Version 1');

    // Saved elsewhere, then the page is loaded again: the new version, not the one read before.
    expect(await theyReword(pid, 2, 'Second wording')).toBe(2);
    await page.reload();
    await expect.poll(() => rowText(page, 2)).toContain('Second wording');
    expect(await version(page)).toBe('Version 2');

    // Saved elsewhere again, then "Refresh project" (nothing unsaved here): read anew, not the
    // reads the page started when it loaded.
    expect(await theyReword(pid, 2, 'Third wording')).toBe(3);
    await page.locator('[data-tool="refresh"]').click();
    await expect.poll(() => rowText(page, 2)).toContain('Third wording');
    await expect.poll(() => version(page)).toBe('Version 3');

    // An unsaved edit here, a save there, and the page loaded again: the draft (based on version 3)
    // is merged with version 4, both changes kept and saved.
    await row(page, 1).dblclick();
    const field = page.getByRole('textbox', { name: /New name/ });
    await field.fill('My wording');
    await field.press('Enter');
    await expect.poll(() => dirtyDraft(page, pid), { timeout: 30_000 }).toBe(true);
    expect(await theyReword(pid, 2, 'Fourth wording')).toBe(4);
    await page.reload();
    await expect.poll(() => rowText(page, 1), { timeout: 30_000 }).toContain('My wording');
    await expect.poll(() => rowText(page, 2), { timeout: 30_000 }).toContain('Fourth wording');
    await expect.poll(() => serverTexts(pid), { timeout: 30_000 }).toEqual(['My wording', 'Fourth wording']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("says why a project cannot be opened in the page's language, though it was asked for before the app started", async () => {
    const other = await server.createOrganization('Someone else');
    const pid = await insertProject(server, other, { name: 'Not ours' });
    const said = async (locale: 'en' | 'ru') =>
      (await server.call('GET', `/project?pid=${pid}`, { session: researcher, locale })).body as {
        message: string;
      };
    const en = (await said('en')).message;
    expect(en).not.toBe((await said('ru')).message);
    const context = await newContext(browser, 'en');
    const page = await context.newPage();
    await signIn(page, server, researcher.user.email);
    await page.goto(`${server.url}/project?pid=${pid}`);
    await page.getByText(`The project could not be opened: ${en}`).waitFor();
    await context.close();
  });
});
