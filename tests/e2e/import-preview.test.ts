import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { axeFull, axeLines, launchBrowser, signIn, startApp, watchErrors } from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { completeContent, getProject, insertProject, saveProject } from '../server/content-helpers';
import { Role } from '../../src/domain/roles';

// Import from list in the editor, with a paste that needs interpreting (issue 17 item 9): the panel
// shows the questions it will make and how it read the text; nothing is added until the user agrees,
// "Edit the text" goes back with the text kept, and "Add the questions" adds them as shown.

const corpus = (name: string) =>
  fs.readFileSync(path.join(import.meta.dirname, '../unit/import-corpus', name), 'utf8');

describe('import preview in the editor', () => {
  let server: TestServer;
  let browser: Browser;
  let researcher: Session;
  let org: number;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    org = await server.createOrganization('Import Org');
    researcher = await server.as(Role.Researcher, { organizationId: org });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const questions = async (pid: number) => {
    const res = await getProject(server, researcher, pid);
    return (
      res.body.content.questionnaires[0].blocks as {
        questions: { text: string; category: string; answers: { text: string }[] }[];
      }[]
    ).flatMap((b) =>
      b.questions.map((q) => ({ text: q.text, category: q.category, answers: q.answers.length })),
    );
  };

  it('shows what an ambiguous paste will make, and adds it only when asked', async () => {
    const pid = await insertProject(server, org, { name: 'Imported from Word' });
    expect((await saveProject(server, researcher, pid, completeContent(), 0)).status).toBe(200);
    const before = await questions(pid);
    const context = await browser.newContext({
      locale: 'en',
      viewport: { width: 1440, height: 900 },
      bypassCSP: true,
    });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, server, researcher.user.email);
    await page.goto(`${server.url}/project?pid=${pid}`);
    await page.getByRole('button', { name: 'Import from list' }).click();
    const box = page.getByLabel('Text with the list of questions');
    await box.fill(corpus('word-ru-numbered.txt'));
    await page.getByRole('button', { name: 'Import', exact: true }).click();

    const preview = page.getByRole('region', { name: 'Check what will be added' });
    await preview.waitFor();
    await preview.getByText('Lines numbered “1)” under the questions were read as their answers.').waitFor();
    expect(await preview.locator('[data-import-preview-question]').count()).toBe(3);
    expect(await preview.locator('[data-import-preview-question]').nth(2).textContent()).toContain(
      'Few answers',
    );
    expect(await preview.textContent()).toContain('Answers: Мужской · Женский');
    // The panel itself; the rest of the editor is audited by its own suite.
    const findings = axeLines(await axeFull(page, undefined, '[data-import-panel]'));
    expect(findings.join('\n')).toBe('');

    // Back to the text: it is still there, and nothing was added.
    await page.getByRole('button', { name: 'Edit the text' }).click();
    expect(await box.inputValue()).toBe(corpus('word-ru-numbered.txt'));
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('button', { name: 'Add the questions' }).click();
    await page.getByRole('button', { name: 'Save project' }).click();
    await expect.poll(async () => (await questions(pid)).length, { timeout: 30_000 }).toBe(before.length + 3);
    expect((await questions(pid)).slice(-3)).toEqual([
      { text: 'Ваш пол?', category: 'oneAnswer', answers: 2 },
      { text: 'Сколько вам лет?', category: 'oneAnswer', answers: 4 },
      { text: 'В какие жанры игр вы играете? (несколько ответов)', category: 'fewAnswers', answers: 4 },
    ]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('adds a paste that reads only one way at once, and still says "Failed to process input!" for one that cannot be read', async () => {
    const pid = await insertProject(server, org, { name: 'Imported plainly' });
    expect((await saveProject(server, researcher, pid, completeContent(), 0)).status).toBe(200);
    const context = await browser.newContext({ locale: 'en' });
    const page = await context.newPage();
    await signIn(page, server, researcher.user.email);
    await page.goto(`${server.url}/project?pid=${pid}`);
    await page.getByRole('button', { name: 'Import from list' }).click();
    const box = page.getByLabel('Text with the list of questions');
    await box.fill('[[Question:CS]]\nConstant sum');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Failed to process input!' }).waitFor();
    await box.fill(corpus('google-docs-en.txt'));
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect.poll(() => page.getByLabel('Text with the list of questions').count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Check what will be added' }).count()).toBe(0);
    await context.close();
  });
});
