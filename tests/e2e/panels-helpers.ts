import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { axeFull, axeLines } from './helpers';

// Drivers of the item panels' end-to-end tests: open a project's editor, select an item, save, and
// audit with axe-core's full rule set (serious and critical findings only).

export const saveState = (page: Page) => page.locator('[role="status"][data-state]');

export async function expectSaveState(page: Page, text: string) {
  await expect.poll(() => saveState(page).textContent(), { timeout: 30_000 }).toBe(text);
}

export const outlineRows = (page: Page, kind: 'questionnaire' | 'block' | 'question') =>
  page.locator(`[role="treeitem"][data-kind="${kind}"]`);

/** Selects question n (in outline order) the way a user does: a click in the outline. */
export async function selectQuestion(page: Page, n: number) {
  await outlineRows(page, 'question')
    .nth(n - 1)
    .click();
  await expect.poll(() => page.locator('[data-panel="question"]').count()).toBe(1);
}

export async function selectBlock(page: Page, n: number) {
  await outlineRows(page, 'block')
    .nth(n - 1)
    .click();
  await expect.poll(() => page.locator('[data-panel="block"]').count()).toBe(1);
}

export const tool = (page: Page, id: string) => page.locator(`[data-tool="${id}"]`).first();

export const panel = (page: Page) => page.locator('[data-panel]');

export async function save(page: Page) {
  await tool(page, 'save').click();
  await expectSaveState(page, 'All changes saved');
}

/** Types into a panel field and leaves it (the field commits when left). */
export async function fill(page: Page, label: string | RegExp, value: string) {
  const input = panel(page)
    .getByLabel(label, { exact: typeof label === 'string' })
    .first();
  await input.fill(value);
  await input.press('Tab');
}

/**
 * Every rule of axe-core (axeFull) over the item panel, any open dialog and the price footer (the
 * parts this suite owns; the frame around them has its own audit); serious and critical findings.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const parts = '[data-panel], [role="dialog"], [data-testid="price-footer"]';
  const any = (await page.locator(parts).count()) > 0;
  return axeLines(await axeFull(page, undefined, any ? parts : undefined));
}
