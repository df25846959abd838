import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newAuditPage, signIn, startApp, watchErrors } from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { insertProject, saveProject } from '../server/content-helpers';
import { Role } from '../../src/domain/roles';
import { newAnswer, newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';
import { expectSaveState, outlineRows, selectQuestion, tool } from './panels-helpers';

// Typing in a question's panel (issue 34, part 5): the text field keeps what is typed in the field
// itself, so a keystroke renders nothing; the text becomes one edit when the field is left, and the
// field still follows the stored text when it changes under it (undo, redo). The canvas's two
// overlay canvases are composited only while a pointer is pressed on it (a drag draws there).

describe('typing in a question’s panel in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let org: number;
  let researcher: Session;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    org = await server.createOrganization('Typing Org');
    researcher = await server.as(Role.Researcher, { organizationId: org });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open() {
    const pid = await insertProject(server, org, { name: 'Typing' });
    const content = {
      questionnaires: [
        newQuestionnaire({
          blocks: [
            newBlock({
              name: 'Intro',
              questions: [
                newQuestion({ text: 'How often', answers: [newAnswer({ text: 'Daily' })] }),
                newQuestion({ text: 'Second' }),
              ],
            }),
          ],
        }),
      ],
      portraits: [],
    };
    expect((await saveProject(server, researcher, pid, content, 0)).status).toBe(200);
    const page = await newAuditPage(browser);
    const errors = watchErrors(page);
    await signIn(page, server, researcher.user.email);
    await page.goto(`${server.url}/project?pid=${pid}`);
    await page.getByRole('tree', { name: 'Questionnaire outline' }).waitFor();
    await expectSaveState(page, 'All changes saved');
    return { page, errors };
  }

  const questionText = (page: Page) =>
    page.locator('[data-panel="question"]').getByRole('textbox', { name: 'Question text' });

  it('keeps the typed text in the field, commits it as one edit when left, and follows undo and redo', async () => {
    const { page, errors } = await open();
    await selectQuestion(page, 1);
    await questionText(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' do you play?');
    // Typed, not yet an edit: the field shows it, the outline and the save state do not.
    expect(await questionText(page).inputValue()).toBe('How often do you play?');
    expect(await outlineRows(page, 'question').first().textContent()).toContain('How often');
    expect(await outlineRows(page, 'question').first().textContent()).not.toContain('play');
    await expectSaveState(page, 'All changes saved');
    // Left: one edit.
    await page.keyboard.press('Tab');
    await expect
      .poll(() => outlineRows(page, 'question').first().textContent())
      .toContain('How often do you play?');
    await expectSaveState(page, 'Unsaved changes');
    // Undo puts the stored text back into the field, though nothing re-rendered it while typing.
    await tool(page, 'undo').click();
    await expect.poll(() => questionText(page).inputValue()).toBe('How often');
    await tool(page, 'redo').click();
    await expect.poll(() => questionText(page).inputValue()).toBe('How often do you play?');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('composites the canvas’s overlay canvases only while a pointer is pressed on it', async () => {
    const { page, errors } = await open();
    const region = page.locator('[role="region"][data-ready]');
    await region.waitFor();
    const visibility = () =>
      page.evaluate(() =>
        ['layer0-selectbox', 'layer1-drag', 'layer2-node'].map(
          (id) => getComputedStyle(document.querySelector(`canvas[data-id="${id}"]`)!).visibility,
        ),
      );
    expect(await visibility()).toEqual(['hidden', 'hidden', 'visible']);
    const box = (await region.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height - 20);
    await page.mouse.down();
    expect(await visibility()).toEqual(['visible', 'visible', 'visible']);
    await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height - 20);
    await page.mouse.up();
    expect(await visibility()).toEqual(['hidden', 'hidden', 'visible']);
    expect(errors).toEqual([]);
    await page.close();
  });
});
