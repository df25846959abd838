import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newAuditPage, signIn, startApp, watchErrors } from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { getProject, insertProject, saveProject } from '../server/content-helpers';
import { Role } from '../../src/domain/roles';
import { newAnswer, newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';
import type { ProjectContent } from '../../src/domain/content/model';
import {
  expectSaveState,
  outlineRows,
  save,
  selectQuestion,
  seriousViolations,
  tool,
} from './panels-helpers';

// Redirects from the picker, one of each of the nine kinds (the "new…" ones create and select their
// target in one undoable edit), and a question with answers and a redirect authored with the
// keyboard alone.

describe('redirects and keyboard authoring in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let org: number;
  let researcher: Session;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    org = await server.createOrganization('Redirect Org');
    researcher = await server.as(Role.Researcher, { organizationId: org });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(content: ProjectContent) {
    const pid = await insertProject(server, org, { name: 'Redirects' });
    expect((await saveProject(server, researcher, pid, content, 0)).status).toBe(200);
    const page = await newAuditPage(browser);
    const errors = watchErrors(page);
    await signIn(page, server, researcher.user.email);
    await page.goto(`${server.url}/project?pid=${pid}`);
    await page.getByRole('tree', { name: 'Questionnaire outline' }).waitFor();
    await expectSaveState(page, 'All changes saved');
    return { page, errors, pid };
  }

  const panel = (page: Page) => page.locator('[data-panel]');
  const kindSelect = (page: Page, label = 'Redirect after the question') =>
    panel(page).getByLabel(`${label}: Where to`, { exact: true });
  const targetSelect = (page: Page, label = 'Redirect after the question') =>
    panel(page).getByLabel(`${label}: Target`, { exact: true });

  it('sets a redirect of each of the nine kinds from the picker', async () => {
    const q1 = newQuestion({
      text: 'Start',
      answers: [newAnswer({ text: 'Yes' }), newAnswer({ text: 'No' })],
    });
    const { page, errors, pid } = await open({
      questionnaires: [
        newQuestionnaire({
          blocks: [
            newBlock({
              name: 'Intro',
              questions: [q1, newQuestion({ text: 'Second' }), newQuestion({ text: 'Third' })],
            }),
            newBlock({ name: 'Main', questions: [newQuestion({ text: 'Fourth' })] }),
          ],
        }),
        newQuestionnaire({ blocks: [newBlock({ questions: [newQuestion({ text: 'Other survey' })] })] }),
      ],
      portraits: [],
    });

    // The "new…" kinds: the target appears and is selected; one undo takes both back.
    for (const [label, kind, panelKind] of [
      ['New questionnaire', 'questionnaire', 'questionnaire'],
      ['New block in current questionnaire', 'block', 'block'],
      ['New question in current block', 'question', 'question'],
      ['New question', 'question', 'question'],
    ] as const) {
      await selectQuestion(page, 1);
      const before = await outlineRows(page, kind).count();
      await kindSelect(page).selectOption({ label });
      await expect.poll(() => outlineRows(page, kind).count(), { message: label }).toBe(before + 1);
      await expect.poll(() => panel(page).getAttribute('data-panel'), { message: label }).toBe(panelKind);
      await tool(page, 'undo').click();
      await expect.poll(() => outlineRows(page, kind).count(), { message: label }).toBe(before);
    }

    // The existing kinds list the items by number and name.
    await selectQuestion(page, 1);
    for (const [label, target] of [
      ['Existing questionnaire', 'Questionnaire 2'],
      ['Existing block in current questionnaire', 'Block 2: Main'],
      ['Existing question in current block', 'Question 3: Third'],
      ['Existing question', 'Questionnaire 2 › Question 1: Other survey'],
    ] as const) {
      await kindSelect(page).selectOption({ label });
      await targetSelect(page).selectOption({ label: target });
      await expect
        .poll(() => targetSelect(page).evaluate((s: HTMLSelectElement) => s.selectedOptions[0].text))
        .toBe(target);
    }
    await kindSelect(page).selectOption({ label: 'Complete current block' });
    expect(await targetSelect(page).count()).toBe(0);

    // On an answer too; then the question's own goes to block 2.
    await kindSelect(page, 'Redirect after answer 1').selectOption({
      label: 'Existing question in current block',
    });
    await targetSelect(page, 'Redirect after answer 1').selectOption({ label: 'Question 2: Second' });
    await kindSelect(page).selectOption({ label: 'Existing block in current questionnaire' });
    await targetSelect(page).selectOption({ label: 'Block 2: Main' });
    expect(await seriousViolations(page)).toEqual([]);
    await save(page);

    const stored = (await getProject(server, researcher, pid)).body.content as ProjectContent;
    const [intro, main] = stored.questionnaires[0].blocks;
    expect(intro.questions[0].redirect).toEqual({ kind: 'block', target: main.id });
    expect(intro.questions[0].answers[0].redirect).toEqual({
      kind: 'questionInBlock',
      target: intro.questions[1].id,
    });
    expect(stored.questionnaires).toHaveLength(2);
    expect(errors).toEqual([]);
    await page.context().close();
  }, 180_000);

  async function tabTo(page: Page, selector: string, max = 80) {
    for (let i = 0; i < max; i++) {
      if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
      await page.keyboard.press('Tab');
    }
    throw new Error(`Tab never reached ${selector}`);
  }

  it('authors a question with answers and a redirect with the keyboard alone', async () => {
    const { page, errors, pid } = await open({
      questionnaires: [
        newQuestionnaire({ blocks: [newBlock({ questions: [newQuestion({ text: 'Draft' })] })] }),
      ],
      portraits: [],
    });
    // Into the outline, down to the question: it is selected and its panel opens.
    await tabTo(page, '[role="tree"]');
    await page.keyboard.press('End');
    await expect.poll(() => panel(page).getAttribute('data-panel')).toBe('question');

    await tabTo(page, '[data-panel] textarea');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Which colours do you like?');
    await tabTo(page, '[data-testid="category-button"]');
    await page.keyboard.press('Space');
    await page.getByRole('listbox').waitFor();
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(() => page.locator('[role="option"][data-focus]').textContent())
      .toContain('Few answers');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('category-button').textContent()).toContain('Few answers');

    await tabTo(page, '[data-testid="add-answer"]');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Red');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Green');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Blue');
    // Blue goes first: Alt+↑ twice.
    await page.keyboard.press('Alt+ArrowUp');
    await page.keyboard.press('Alt+ArrowUp');
    await expect.poll(() => panel(page).getByLabel('Answer 1', { exact: true }).inputValue()).toBe('Blue');
    await expect
      .poll(() => page.locator('[data-panel] [role="status"]').allTextContents())
      .toContain('Answer 2 is now at position 1');

    await tabTo(page, '[data-panel] select[aria-label="Redirect after the question: Where to"]');
    await page.keyboard.press('End');
    await expect.poll(() => kindSelect(page).inputValue()).toBe('completeBlock');
    await page.keyboard.press('Control+s');
    await expectSaveState(page, 'All changes saved');

    const stored = (await getProject(server, researcher, pid)).body.content as ProjectContent;
    const q = stored.questionnaires[0].blocks[0].questions[0];
    expect(q).toMatchObject({ text: 'Which colours do you like?', category: 'fewAnswers' });
    expect(q.answers.map((a) => a.text)).toEqual(['Blue', 'Red', 'Green']);
    expect(q.redirect).toEqual({ kind: 'completeBlock', target: null });
    expect(errors).toEqual([]);
    await page.context().close();
  }, 180_000);
});
