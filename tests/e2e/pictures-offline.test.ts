import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { axeFull, axeLines, launchBrowser, signIn, startApp, watchErrors } from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { getProject, insertProject, saveProject } from '../server/content-helpers';
import { Role } from '../../src/domain/roles';
import { newAnswer, newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';
import type { ProjectContent } from '../../src/domain/content/model';
import { expectSaveState, panel, selectQuestion, tool } from './panels-helpers';

// A picture picked offline (issue 12 part 4) in Chromium: it waits in the browser (Dexie) and shows
// from its own file with a "waits" mark; a save while offline sends nothing and says why; a picture
// removed before the upload comes back whole with Undo, and is never uploaded once removed for good;
// the page reloads offline with the picture still there;
// back online the queue uploads, the save stores the server's URL, and the server serves the file.

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** The page's queue and draft as its IndexedDB holds them. */
function stored(page: Page, pid: number) {
  return page.evaluate(
    (pid) =>
      new Promise<{ queued: number; pictures: (string | null)[] }>((resolve, reject) => {
        const open = indexedDB.open('survey-backoffice');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(['drafts', 'pendingPictures'], 'readonly');
          const draft = tx.objectStore('drafts').get(pid);
          const queued = tx.objectStore('pendingPictures').index('pid').count(pid);
          tx.oncomplete = () => {
            db.close();
            const c = draft.result ? (JSON.parse(draft.result.content) as ProjectContent) : null;
            const q = c?.questionnaires[0].blocks[0].questions[0];
            resolve({
              queued: queued.result,
              pictures: q ? [q.picture, ...q.answers.map((a) => a.picture)] : [],
            });
          };
        };
      }),
    pid,
  );
}

describe('pictures picked offline', () => {
  let server: TestServer;
  let browser: Browser;
  let org: number;
  let researcher: Session;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    org = await server.createOrganization('Offline Pictures Org');
    researcher = await server.as(Role.Researcher, { organizationId: org });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('wait in the browser across a reload, upload when the network is back, and are saved and served', async () => {
    const pid = await insertProject(server, org, { name: 'Offline pictures' });
    const content: ProjectContent = {
      questionnaires: [
        newQuestionnaire({
          blocks: [
            newBlock({
              questions: [
                newQuestion({
                  text: 'Pick a cover',
                  answers: [newAnswer({ text: 'A' }), newAnswer({ text: 'B' })],
                }),
              ],
            }),
          ],
        }),
      ],
      portraits: [],
    };
    expect((await saveProject(server, researcher, pid, content, 0)).status).toBe(200);
    // CSP bypassed only so the accessibility audit can inject axe-core.
    const context = await browser.newContext({
      locale: 'en',
      viewport: { width: 1280, height: 800 },
      bypassCSP: true,
    });
    const page = await context.newPage();
    const errors = watchErrors(page);
    const uploads: string[] = [];
    page.on('request', (r) => r.url().endsWith('/picture') && uploads.push(r.method()));
    await signIn(page, server, researcher.user.email);
    await page.goto(`${server.url}/project?pid=${pid}`);
    await expectSaveState(page, 'All changes saved');
    // The offline reload below needs the service worker in control of the page.
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    if (!(await page.evaluate(() => !!navigator.serviceWorker.controller))) {
      await page.reload();
      await page.waitForFunction(() => !!navigator.serviceWorker.controller);
      await expectSaveState(page, 'All changes saved');
    }
    await selectQuestion(page, 1);

    await context.setOffline(true);
    const questionThumb = () =>
      panel(page).getByRole('img', { name: 'Picture: Block 1 › Question 1', exact: true });
    await panel(page)
      .getByLabel('Choose a picture: Block 1 › Question 1', { exact: true })
      .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
    await questionThumb().waitFor();
    expect(await questionThumb().getAttribute('src')).toMatch(/^blob:/);
    await expect.poll(() => questionThumb().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    await panel(page).getByText('Waits for connection').waitFor();
    await panel(page).getByText('Offline: the picture uploads with the next save').waitFor();

    // An answer's picture removed before it was ever uploaded: Undo brings it back whole (its file
    // stays queued); removed again, it is not uploaded, and its file goes once nothing can bring it back.
    const answerThumb = () =>
      panel(page).getByRole('img', { name: 'Picture: Block 1 › Question 1 › Answer 2', exact: true });
    const removeAnswerPicture = () =>
      panel(page)
        .getByRole('button', { name: 'Remove picture: Block 1 › Question 1 › Answer 2', exact: true })
        .click();
    await panel(page)
      .getByLabel('Choose a picture: Block 1 › Question 1 › Answer 2', { exact: true })
      .setInputFiles({ name: 'b.png', mimeType: 'image/png', buffer: PNG });
    await answerThumb().waitFor();
    await expect.poll(async () => (await stored(page, pid)).queued).toBe(2);
    await removeAnswerPicture();
    await expect.poll(() => answerThumb().count()).toBe(0);
    expect((await stored(page, pid)).queued).toBe(2);
    await tool(page, 'undo').click();
    await answerThumb().waitFor();
    expect(await answerThumb().getAttribute('src')).toMatch(/^blob:/);
    await expect.poll(() => answerThumb().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    expect(await panel(page).getByText('no longer in this browser').count()).toBe(0);
    await removeAnswerPicture();
    await expect.poll(() => answerThumb().count()).toBe(0);
    const queue = page.getByTestId('picture-queue');
    await expect
      .poll(() => queue.textContent())
      .toBe('Pictures waiting for the connection (1): they upload with the save once the network is back');

    // Saving offline sends nothing and says why.
    await tool(page, 'save').click();
    await expect
      .poll(() => page.getByText('Pictures waiting for the connection (1)').count())
      .toBeGreaterThanOrEqual(2); // the line above the footer and the toast
    expect(uploads).toEqual([]);
    expect((await getProject(server, researcher, pid)).body.version).toBe(1);

    const findings = axeLines([
      ...(await axeFull(page, undefined, '[data-panel]')),
      ...(await axeFull(page, undefined, '[data-testid="picture-queue"]')),
    ]);
    expect(findings).toEqual([]);

    // The draft holds the local reference; reloaded offline, the picture is still there.
    await expect
      .poll(async () => (await stored(page, pid)).pictures)
      .toEqual([expect.stringMatching(/^local-picture:/), null, null]);
    await page.reload();
    await expect
      .poll(() => page.locator('[data-source]').getAttribute('data-source'), { timeout: 30_000 })
      .toBe('offline');
    await selectQuestion(page, 1);
    await questionThumb().waitFor();
    expect(await questionThumb().getAttribute('src')).toMatch(/^blob:/);
    await panel(page).getByText('Waits for connection').waitFor();

    // Back online: the queue uploads by itself and the reference becomes the server's URL.
    await context.setOffline(false);
    await expect
      .poll(() => questionThumb().getAttribute('src'), { timeout: 30_000 })
      .toMatch(/^\/api\/v1\/service\/pictures\/[0-9a-f]{64}\.png$/);
    expect(uploads).toEqual(['POST']);
    await expect.poll(() => queue.count()).toBe(0);
    await tool(page, 'save').click();
    await expectSaveState(page, 'All changes saved');

    const saved = (await getProject(server, researcher, pid)).body.content as ProjectContent;
    const q = saved.questionnaires[0].blocks[0].questions[0];
    expect(q.picture).toMatch(/^\/api\/v1\/service\/pictures\/[0-9a-f]{64}\.png$/);
    expect(q.answers.map((a) => a.picture)).toEqual([null, null]);
    const served = await fetch(`${server.url}${q.picture}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    await expect.poll(async () => (await stored(page, pid)).queued).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('upload with the save itself when picked offline and saved once back online', async () => {
    const pid = await insertProject(server, org, { name: 'Queued then saved' });
    const content: ProjectContent = {
      questionnaires: [
        newQuestionnaire({
          blocks: [
            newBlock({ questions: [newQuestion({ text: 'Q', answers: [newAnswer({ text: 'A' })] })] }),
          ],
        }),
      ],
      portraits: [],
    };
    expect((await saveProject(server, researcher, pid, content, 0)).status).toBe(200);
    const context = await browser.newContext({ locale: 'en', viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, server, researcher.user.email);
    await page.goto(`${server.url}/project?pid=${pid}`);
    await expectSaveState(page, 'All changes saved');
    await selectQuestion(page, 1);
    await context.setOffline(true);
    await panel(page)
      .getByLabel('Choose a picture: Block 1 › Question 1 › Answer 1', { exact: true })
      .setInputFiles({ name: 'a.png', mimeType: 'image/png', buffer: PNG });
    await panel(page).getByText('Waits for connection').waitFor();
    await tool(page, 'save').click();
    // Online again: the save asked for offline finishes once the picture is up.
    await context.setOffline(false);
    await expectSaveState(page, 'All changes saved');
    const saved = (await getProject(server, researcher, pid)).body.content as ProjectContent;
    expect(saved.questionnaires[0].blocks[0].questions[0].answers[0].picture).toMatch(
      /^\/api\/v1\/service\/pictures\/[0-9a-f]{64}\.png$/,
    );
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
