import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { axeFull, axeLines, launchBrowser, signIn, startApp, watchErrors } from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { completeContent, getProject, insertProject, saveProject } from '../server/content-helpers';
import { newAnswer } from '../../src/domain/content/factory';
import { Role } from '../../src/domain/roles';

// The history's "Compare" shows what changed (issue #26): two saved versions of a project, the
// second with a question's wording changed and answers added and removed; comparing the first with
// the content on screen shows the old and the new wording with the changed words marked, and the
// answers added and removed by name, in <del>/<ins> with words a screen reader says.

describe('history Compare in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let org: number;
  let anna: Session;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    org = await server.createOrganization('Compare Org');
    anna = await server.as(Role.Researcher, { organizationId: org });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the old and new wording and the answers added and removed; axe finds nothing serious', async () => {
    const pid = await insertProject(server, org, { name: 'Compare' });
    expect((await saveProject(server, anna, pid, completeContent(), 0)).status).toBe(200);
    const v2 = (await getProject(server, anna, pid)).body.content;
    const q = v2.questionnaires[0].blocks[0].questions[0];
    expect(q.text).toBe('How old are you?');
    expect(q.answers.map((a: { text: string }) => a.text)).toEqual(['Under 18', '18 or more']);
    q.text = 'How old were you last year?';
    q.answers = [q.answers[1], newAnswer({ text: 'Rather not say' })];
    expect((await saveProject(server, anna, pid, v2, 1)).status).toBe(200);

    // CSP bypassed only so the audit can inject axe-core.
    const context = await browser.newContext({
      locale: 'en',
      viewport: { width: 1440, height: 900 },
      bypassCSP: true,
    });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, server, anna.user.email);
    await page.goto(`${server.url}/project?pid=${pid}`);
    await expect
      .poll(() => page.locator('[role="status"][data-state]').textContent(), { timeout: 30_000 })
      .toBe('All changes saved');
    await page.getByRole('tab', { name: 'History' }).click();
    const versions = page
      .getByRole('region', { name: 'Version history' })
      .getByRole('list', { name: 'Project versions' });
    const first = versions.locator('li[data-version="1"]');
    await first.getByRole('button', { name: 'Compare version 1 with the current content' }).click();
    const diff = first.getByTestId('version-diff');
    await diff.waitFor();
    const item = diff.locator(':scope > li[data-change="changed"]');
    expect(await item.count()).toBe(1);
    expect(await item.locator('p').first().textContent()).toBe(
      'Changed (Text, Answers): Question: How old were you last year?',
    );

    // The wording then and now: the kept words plain, the changed ones marked.
    const text = item.locator('[data-field="text"] dd');
    expect(await text.locator('del').allTextContents()).toEqual(['removed: are']);
    expect(await text.locator('ins').allTextContents()).toEqual(['added: were', 'added:  last year']);
    expect(await text.textContent()).toBe('How old removed: areadded: were youadded:  last year?');
    // What a sighted reader sees: the old wording struck through, the new one underlined.
    const visible = await text.evaluate((el) => {
      const pick = (keep: string) =>
        [...el.querySelectorAll(':scope > span > *')]
          .filter((n) => n.tagName !== keep)
          .map((n) =>
            [...n.childNodes].filter((c) => c.nodeType === Node.TEXT_NODE).map((c) => c.textContent),
          )
          .join('');
      return { then: pick('INS'), now: pick('DEL') };
    });
    expect(visible).toEqual({ then: 'How old are you?', now: 'How old were you last year?' });
    expect(
      await text
        .locator('del')
        .first()
        .evaluate((el) => getComputedStyle(el).textDecorationLine),
    ).toContain('line-through');

    // The answers added and removed, by name.
    expect(await item.locator('[data-list="answer-removed"] dt').textContent()).toBe('Answers removed');
    expect(await item.locator('[data-list="answer-removed"] del').allTextContents()).toEqual([
      'removed: Under 18',
    ]);
    expect(await item.locator('[data-list="answer-added"] dt').textContent()).toBe('Answers added');
    expect(await item.locator('[data-list="answer-added"] ins').allTextContents()).toEqual([
      'added: Rather not say',
    ]);

    await page.screenshot({ path: '/tmp/history-compare-1440.png', fullPage: true });
    expect(axeLines(await axeFull(page))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
