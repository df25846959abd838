import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  axeFull,
  axeLines,
  launchBrowser,
  newAuditPage,
  newContext,
  signIn,
  startApp,
  watchErrors,
} from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { completeContent, getProject, insertProject, saveProject } from '../server/content-helpers';
import { writeContent } from '../../server/repos/content';
import { newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';
import { Role } from '../../src/domain/roles';
import { ProjectStatus, ProjectType } from '../../src/domain/projects';
import { layout, NODE_H, NODE_W } from '../../src/workers/layout';
import type { LayoutStructure } from '../../src/workers/layoutProtocol';
import type { ProjectContent } from '../../src/domain/content/model';
import { structureOf } from '../../src/views/editor/canvas/elements';

// The editor's toolbar and problem list in Chromium: every one of the spec's 14 tools run once; a
// redirect cycle is drawn and listed, fixed from the list and saved; read-only statuses say why;
// axe-core finds nothing serious on the page, its menus and dialogs.

const SHOTS = process.env.E2E_SHOTS;
describe('editor tools in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let org: number;
  let researcher: Session;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    org = await server.createOrganization('Tools Org');
    researcher = await server.as(Role.Researcher, { organizationId: org });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function completeProject(name: string, type: number = ProjectType.Default) {
    const pid = await insertProject(server, org, { name, type });
    expect(
      (await saveProject(server, researcher, pid, completeContent(type === ProjectType.Target), 0)).status,
    ).toBe(200);
    return pid;
  }
  async function open(pid: number, page?: Page) {
    if (!page) {
      const context = await newContext(browser);
      page = await context.newPage();
      await page.setViewportSize({ width: 1440, height: 900 });
      await signIn(page, server, researcher.user.email);
    }
    const errors = watchErrors(page);
    await page.goto(`${server.url}/project?pid=${pid}`);
    await page.getByRole('tree', { name: 'Questionnaire outline' }).waitFor();
    return { page, errors };
  }
  const tool = (page: Page, id: string) => page.locator(`[data-tool="${id}"]`).first();
  const status = (page: Page) => page.locator('[role="status"][data-state]');

  it('draws a redirect cycle on the canvas and lists it; the fix is made from the list and saved', async () => {
    const pid = await insertProject(server, org, { name: 'Looping' });
    const q1 = newQuestion({ text: 'First', category: 'open' });
    const q2 = newQuestion({ text: 'Second', category: 'open' });
    const q3 = newQuestion({ text: 'Third', category: 'open' });
    q1.redirect = { kind: 'questionInBlock', target: q2.id };
    q2.redirect = { kind: 'questionInBlock', target: q1.id };
    // Stored around the API (which refuses cycles), as an older client could have left it.
    await writeContent(
      server.app.db as never,
      pid,
      0,
      {
        questionnaires: [newQuestionnaire({ blocks: [newBlock({ name: 'Loop', questions: [q1, q2, q3] })] })],
        portraits: [],
      },
      null,
    );
    const { page, errors } = await open(pid);
    const canvas = page.getByRole('region', { name: 'Questionnaire graph' });
    await expect.poll(() => canvas.getAttribute('data-cycle')).toBe(`r:${q1.id} r:${q2.id}`);
    await page.getByRole('tab', { name: /Problems/ }).click();
    const listed = page.locator('[data-rule="redirectCycle"] button');
    await expect
      .poll(() => listed.textContent())
      .toBe(
        'Questionnaire 1 › Block 1: Loop › Question 1: Unable to save project. Circular or incorrect redirects are set — Circular redirect: the redirects form a loop',
      );
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/cycle.png` });
    // Saving is refused and opens the list with the count.
    await page.locator('[role="treeitem"][data-kind="block"]').dblclick();
    await page.getByRole('textbox', { name: /New name/ }).fill('Loop again');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+s');
    await expect.poll(() => page.getByText(/Not saved: \d+ problems/).count()).toBeGreaterThan(0);
    // From the list: the item is selected in the outline (and on the canvas); it is deleted there.
    await listed.click();
    await expect
      .poll(() => page.locator('[role="treeitem"][aria-selected="true"]').textContent())
      .toContain('First');
    await page.getByRole('tree').focus();
    await page.keyboard.press('Delete');
    await expect.poll(() => canvas.getAttribute('data-cycle')).toBeNull();
    expect(await page.locator('[data-rule="redirectCycle"]').count()).toBe(0);
    await tool(page, 'save').click();
    await expect.poll(() => status(page).textContent(), { timeout: 30_000 }).toBe('All changes saved');
    const saved = (await getProject(server, researcher, pid)).body.content;
    expect(saved.questionnaires[0].blocks[0].questions.map((q: { text: string }) => q.text)).toEqual([
      'Second',
      'Third',
    ]);
    expect(errors).toEqual([]);
  });

  it('runs each of the 14 tools once', async () => {
    const pid = await completeProject('Every tool', ProjectType.Target);
    const { page, errors } = await open(pid);
    const ids = await page
      .locator('[role="toolbar"] [data-tool]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-tool')).slice(0, 14));
    expect(ids).toEqual([
      'undo',
      'redo',
      'openReport',
      'refresh',
      'connections',
      'preview',
      'import',
      'save',
      'portraits',
      'projectSettings',
      'sendModeration',
      'surveyLink',
      'backToProjects',
      'help',
    ]);
    // Tooltips carry the name and the shortcut, or why the tool is disabled.
    expect(await page.locator('[data-tool="save"] + [role="tooltip"]').textContent()).toBe(
      'Save project: All changes are saved',
    );
    expect(await page.locator('[data-tool="connections"] + [role="tooltip"]').textContent()).toBe(
      'Show/hide connections (Alt+C)',
    );

    // An edit, then undo and redo.
    await page.locator('[role="treeitem"][data-kind="block"]').first().click();
    await tool(page, 'addQuestion').click();
    await expect.poll(() => page.locator('[role="treeitem"][data-kind="question"]').count()).toBe(3);
    await tool(page, 'undo').click();
    await expect.poll(() => page.locator('[role="treeitem"][data-kind="question"]').count()).toBe(2);
    await tool(page, 'redo').click();
    await expect.poll(() => page.locator('[role="treeitem"][data-kind="question"]').count()).toBe(3);

    // Refresh with unsaved edits asks first, then reopens the server copy.
    await tool(page, 'refresh').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Agree' }).click();
    await expect.poll(() => page.locator('[role="treeitem"][data-kind="question"]').count()).toBe(2);

    // Open report in a new window.
    const [popup] = await Promise.all([
      page.context().waitForEvent('page'),
      tool(page, 'openReport').click(),
    ]);
    expect(new URL(popup.url()).pathname + new URL(popup.url()).search).toBe(`/report?pid=${pid}`);
    await popup.close();

    // Connections and preview toggle.
    await tool(page, 'connections').click();
    expect(await tool(page, 'connections').getAttribute('aria-pressed')).toBe('false');
    await tool(page, 'connections').click();
    await tool(page, 'preview').click();
    await page.getByRole('region', { name: 'Preview' }).waitFor();
    await tool(page, 'preview').click();

    // Import from list, then save.
    await tool(page, 'import').click();
    await page.getByLabel('Text with the list of questions').fill('1. Your city?\n- Kazan\n- Moscow');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect.poll(() => page.locator('[role="treeitem"][data-kind="question"]').count()).toBe(3);
    await tool(page, 'save').click();
    await expect.poll(() => status(page).textContent(), { timeout: 30_000 }).toBe('All changes saved');

    // Portraits and project settings: the dialogs of the panels (a researcher may not change settings).
    await tool(page, 'portraits').click();
    // The dialog's chunk may still be loading: Escape before it shows would close nothing.
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await page.locator('[data-tool="projectSettings"] + [role="tooltip"]').textContent()).toBe(
      'Project settings: Your role may not change project settings',
    );

    // Help opens the editor's guide.
    await tool(page, 'help').click();
    await page.getByRole('dialog').waitFor();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/help.png` });
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    // Send for moderation: confirm, then the page is read-only and says why.
    await tool(page, 'sendModeration').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Agree' }).click();
    await expect
      .poll(() => page.locator('[data-readonly-banner]').textContent())
      .toBe('View only. Not editable: On moderation');
    expect(await tool(page, 'addQuestion').getAttribute('aria-disabled')).toBe('true');
    expect(await page.locator('[data-tool="undo"] + [role="tooltip"]').textContent()).toBe(
      'Undo: Not editable: On moderation',
    );
    const row = await server.app.db
      .selectFrom('projects')
      .select('status')
      .where('id', '=', pid)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe(ProjectStatus.OnModeration);

    // Survey link of a project on moderation: shown at once with a copy button.
    await tool(page, 'surveyLink').click();
    const dialog = page.getByRole('dialog', { name: 'Survey link' });
    expect(await dialog.getByLabel('Survey link').inputValue()).toMatch(/\/s\/[A-Za-z0-9_-]+$/);
    await dialog.getByRole('button', { name: 'Copy link' }).waitFor();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/link.png` });
    await dialog.getByRole('button', { name: 'Close' }).click();

    // Back to the projects list.
    await tool(page, 'backToProjects').click();
    await page.waitForURL((u) => u.pathname === '/projects');
    expect(errors).toEqual([]);
  });

  it('gets the survey link of a project being written: confirm, then on moderation, then the link', async () => {
    const pid = await completeProject('Link please');
    const { page, errors } = await open(pid);
    await tool(page, 'surveyLink').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Agree' }).click();
    const dialog = page.getByRole('dialog', { name: 'Survey link' });
    expect(await dialog.getByLabel('Survey link').inputValue()).toMatch(/\/s\/[A-Za-z0-9_-]+$/);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect
      .poll(() => page.locator('[data-readonly-banner]').textContent())
      .toBe('View only. Not editable: On moderation');
    expect(errors).toEqual([]);
  });

  it('has no serious or critical axe violations on the page, the command menu, the context menu and a dialog', async () => {
    const pid = await completeProject('Accessible');
    const page = await newAuditPage(browser);
    await signIn(page, server, researcher.user.email);
    await open(pid, page);
    await page.locator('[role="treeitem"][data-kind="question"]').first().click();
    expect(axeLines(await axeFull(page))).toEqual([]);
    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: 'Find a command' }).waitFor();
    expect(axeLines(await axeFull(page))).toEqual([]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/menu.png` });
    await page.keyboard.press('Escape');
    await page.getByRole('region', { name: 'Questionnaire graph' }).focus();
    await page.keyboard.press('Shift+F10');
    await page.getByRole('menu', { name: 'Item actions' }).waitFor();
    expect(axeLines(await axeFull(page))).toEqual([]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/context.png` });
    await page.keyboard.press('Escape');
    await tool(page, 'refresh').click();
    await tool(page, 'sendModeration').click();
    await page.getByRole('dialog').waitFor();
    expect(axeLines(await axeFull(page))).toEqual([]);
  });
});

describe('canvas drag in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let org: number;
  let researcher: Session;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    org = await server.createOrganization('Drag Org');
    researcher = await server.as(Role.Researcher, { organizationId: org });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Opens a saved project at 1 440 × 900 until the canvas is drawn; `viewport()` reads its zoom and pan. */
  async function openCanvas(content: ProjectContent, name: string) {
    const pid = await insertProject(server, org, { name });
    expect((await saveProject(server, researcher, pid, content, 0)).status).toBe(200);
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    const errors = watchErrors(page);
    await signIn(page, server, researcher.user.email);
    await page.goto(`${server.url}/project?pid=${pid}`);
    const region = page.locator('[role="region"][data-ready]');
    await region.waitFor();
    await expect.poll(() => region.getAttribute('data-viewport')).not.toBeNull();
    const box = (await region.boundingBox())!;
    const viewport = async () => (await region.getAttribute('data-viewport'))!.split(',').map(Number);
    return { page, context, errors, region, box, viewport };
  }

  it('moves a question dragged onto another block (012), and undo takes it back', async () => {
    const content = {
      questionnaires: [
        newQuestionnaire({
          blocks: [
            newBlock({
              questions: [
                newQuestion({ text: 'Mover', category: 'open' }),
                newQuestion({ text: 'Stayer', category: 'open' }),
              ],
            }),
            newBlock({ questions: [newQuestion({ text: 'Other', category: 'open' })] }),
          ],
        }),
      ],
      portraits: [],
    };
    const { page, errors, box, viewport } = await openCanvas(content, 'Dragging');
    const [zoom, px, py] = await viewport();
    const pos = layout(structureOf(content));
    const screen = (id: string) => ({ x: box.x + px + pos[id].x * zoom, y: box.y + py + pos[id].y * zoom });
    const [mover] = content.questionnaires[0].blocks[0].questions;
    const [other] = content.questionnaires[0].blocks[1].questions;
    const from = screen(mover.id);
    const to = screen(other.id);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++)
      await page.mouse.move(from.x + ((to.x - from.x) * i) / 10, to.y + 20 * zoom);
    await page.mouse.up();
    const questions = page.locator('[role="treeitem"][data-kind="question"]');
    await expect
      .poll(() => questions.allTextContents())
      .toEqual(['Question 1: StayerOpen', 'Question 2: OtherOpen', 'Question 3: MoverOpen']);
    await page.getByRole('tab', { name: /Changes/ }).click();
    await expect.poll(() => page.locator('[data-code="012"]').count()).toBe(1);
    await page.locator('[data-tool="undo"]').click();
    await expect
      .poll(() => questions.allTextContents())
      .toEqual(['Question 1: MoverOpen', 'Question 2: StayerOpen', 'Question 3: OtherOpen']);
    expect(errors).toEqual([]);
  });

  it("draws a question's new text on the canvas after an edit, and the old one again after undo", async () => {
    const content: ProjectContent = {
      questionnaires: [
        newQuestionnaire({
          blocks: [
            newBlock({
              questions: [
                newQuestion({ text: 'Short', category: 'open' }),
                newQuestion({ text: 'Neighbour', category: 'open' }),
              ],
            }),
          ],
        }),
      ],
      portraits: [],
    };
    const { page, context, errors, box, viewport } = await openCanvas(content, 'Redrawn');
    await page.locator('[role="region"][data-complete]').waitFor();
    const [zoom, px, py] = await viewport();
    const p = layout(structureOf(content))[content.questionnaires[0].blocks[0].questions[0].id];
    // The question's box on screen, a little inside its border.
    const clip = {
      x: box.x + px + (p.x - NODE_W / 2) * zoom + 4,
      y: box.y + py + (p.y - NODE_H / 2) * zoom + 4,
      width: (NODE_W - 8) * zoom,
      height: (NODE_H - 8) * zoom,
    };
    const shot = () => page.screenshot({ clip }).then((b) => b.toString('base64'));
    // Selected first (the rename selects it), the mouse away (a hovered node is drawn otherwise).
    const row = page.locator('[role="treeitem"][data-kind="question"]').first();
    await row.click();
    await page.mouse.move(box.x + 5, box.y + box.height - 5);
    await page.waitForTimeout(300);
    const before = await shot();
    await row.dblclick();
    await page.getByRole('textbox', { name: /New name/ }).fill('A much longer wording now');
    await page.getByRole('textbox', { name: /New name/ }).press('Enter');
    await expect.poll(() => row.textContent()).toContain('A much longer wording now');
    // The canvas follows a frame later: its pixels change, and change back with undo.
    await page.mouse.move(box.x + 5, box.y + box.height - 5);
    await expect.poll(shot, { timeout: 30_000 }).not.toBe(before);
    await page.locator('[data-tool="undo"]').click();
    await expect.poll(() => row.textContent()).toContain('Short');
    await page.mouse.move(box.x + 5, box.y + box.height - 5);
    await expect.poll(shot, { timeout: 30_000 }).toBe(before);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('moves the view to a question or a block added off-screen, without refitting the whole graph', async () => {
    /** Opens a project; `whole(p)` tells whether a node centred at model point p shows whole in the canvas. */
    async function openGrowing(content: ProjectContent) {
      const { page, errors, box, viewport } = await openCanvas(content, 'Growing');
      const whole = async (p: { x: number; y: number }) => {
        const [zoom, px, py] = await viewport();
        const x = px + p.x * zoom;
        const y = py + p.y * zoom;
        const [w, h] = [(NODE_W / 2) * zoom, (NODE_H / 2) * zoom];
        return x - w >= 0 && x + w <= box.width && y - h >= 0 && y + h <= box.height;
      };
      const selected = page.locator('[role="treeitem"][aria-selected="true"]');
      return { page, errors, viewport, whole, selected };
    }

    // Twelve columns of three questions: the last block lies far right of the opening view.
    const blocks = Array.from({ length: 12 }, (_, j) =>
      newBlock({
        questions: [1, 2, 3].map((k) => newQuestion({ text: `B${j + 1} Q${k}`, category: 'open' })),
      }),
    );
    const wide = { questionnaires: [newQuestionnaire({ blocks })], portraits: [] };
    const a = await openGrowing(wide);
    const [zoom0] = await a.viewport();
    const shape = structureOf(wide);
    expect(await a.whole(layout(shape)[blocks[11].questions[2].id])).toBe(false);
    // The last question picked in the outline, a question added after it.
    await a.page.getByRole('tree', { name: 'Questionnaire outline' }).focus();
    await a.page.keyboard.press('End');
    await a.page.locator('[data-tool="addQuestion"]').click();
    await expect.poll(() => a.selected.getAttribute('data-kind')).toBe('question');
    const addedId = (await a.selected.getAttribute('data-id'))!;
    shape.questionnaires[0].blocks[11].questions.push(addedId);
    await expect.poll(async () => a.whole(layout(shape)[addedId])).toBe(true);
    // The view moved; it did not zoom out to fit everything.
    expect((await a.viewport())[0]).toBe(zoom0);
    // Dragged away from it, the view stays put while the selected question is edited.
    const region = (await a.page.locator('[role="region"][data-ready]').boundingBox())!;
    const from = { x: region.x + region.width / 2, y: region.y + region.height - 30 };
    await a.page.mouse.move(from.x, from.y);
    await a.page.mouse.down();
    for (let i = 1; i <= 10; i++) await a.page.mouse.move(from.x + 60 * i, from.y);
    await a.page.mouse.up();
    await expect.poll(async () => a.whole(layout(shape)[addedId])).toBe(false);
    const panned = await a.viewport();
    await a.selected.dblclick();
    await a.page.getByRole('textbox', { name: /New name/ }).fill('Renamed far away');
    await a.page.keyboard.press('Enter');
    await expect.poll(() => a.selected.textContent()).toContain('Renamed far away');
    expect(await a.viewport()).toEqual(panned);
    expect(a.errors).toEqual([]);

    // A new project's questionnaire grows to the right block by block: each new block shows whole,
    // also when it would land half cut at the canvas's edge.
    const b = await openGrowing({ questionnaires: [newQuestionnaire({ blocks: [] })], portraits: [] });
    const [zoom1] = await b.viewport();
    const grown = {
      questionnaires: [
        { id: 'qn', blocks: [] as LayoutStructure['questionnaires'][0]['blocks'], newQn: false },
      ],
    };
    for (let i = 0; i < 4; i++) {
      await b.page.locator('[data-tool="addBlock"]').click();
      await expect.poll(() => b.selected.getAttribute('data-kind')).toBe('block');
      await expect
        .poll(() => b.selected.getAttribute('data-id'))
        .not.toBe(grown.questionnaires[0].blocks.at(-1)?.id ?? '');
      const id = (await b.selected.getAttribute('data-id'))!;
      grown.questionnaires[0].blocks.push({ id, questions: [], end: false });
      await expect.poll(async () => b.whole(layout(grown)[`empty:${id}`])).toBe(true);
    }
    expect((await b.viewport())[0]).toBe(zoom1);
    expect(b.errors).toEqual([]);
  });
});
