import { createRequire } from 'node:module';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

// Drivers of the item panels' end-to-end tests: open a project's editor, select an item, save, and
// audit with axe-core's full rule set (serious and critical findings only).

export const saveState = (page: Page) => page.locator('[role="status"][data-state]');

export async function expectSaveState(page: Page, text: string) {
  await expect.poll(() => saveState(page).textContent(), { timeout: 15_000 }).toBe(text);
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

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * Every rule of axe-core over the item panel and any open dialog (the parts this suite owns; the
 * frame around them has its own audit); the serious and critical findings, one line each.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    type Axe = {
      run: (
        ctx: unknown,
      ) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
    };
    const axe = (window as unknown as { axe: Axe }).axe;
    const include = [
      ...document.querySelectorAll('[data-panel], [role="dialog"], [data-testid="price-footer"]'),
    ];
    const result = await axe.run(include.length ? { include } : document);
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}
