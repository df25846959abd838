import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newAuditPage, signIn, startApp, watchErrors } from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { completeContent, getProject, insertProject, saveProject } from '../server/content-helpers';
import { Role } from '../../src/domain/roles';
import { ProjectStatus, ProjectType } from '../../src/domain/projects';
import type { ProjectContent } from '../../src/domain/content/model';
import {
  expectSaveState,
  save,
  selectBlock,
  selectQuestion,
  seriousViolations,
  tool,
} from './panels-helpers';

// The portraits and project settings dialogs, and who may change the technical fields: a target
// project's portraits built in the dialog (with the rules' messages live) and sent for moderation;
// a Researcher sees customParams and block settings read-only, a Moderator sets them on moderation.

describe('editor dialogs and permissions in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let org: number;
  let researcher: Session;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    org = await server.createOrganization('Dialogs Org');
    researcher = await server.as(Role.Researcher, { organizationId: org });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(pid: number, session: Session) {
    const page = await newAuditPage(browser);
    const errors = watchErrors(page);
    await signIn(page, server, session.user.email);
    await page.goto(`${server.url}/project?pid=${pid}`);
    await page.getByRole('tree', { name: 'Questionnaire outline' }).waitFor();
    return { page, errors };
  }

  it('builds the portraits of a target project in the dialog and sends the project for moderation', async () => {
    const pid = await insertProject(server, org, { type: ProjectType.Target, name: 'Target one' });
    // As POST /projects writes it: the lower-case name the list searches.
    await server.app.db
      .updateTable('projects')
      .set({ search_name: 'target one' })
      .where('id', '=', pid)
      .execute();
    expect((await saveProject(server, researcher, pid, completeContent(false), 0)).status).toBe(200);
    // An Administrator: the project settings are not a Researcher's (spec section 6).
    const admin = await server.as(Role.Administrator);
    const { page, errors } = await open(pid, admin);
    await expectSaveState(page, 'All changes saved');

    await tool(page, 'portraits').click();
    const dialog = page.getByRole('dialog', { name: 'Portraits' });
    await expect.poll(() => dialog.getByTestId('portraits-problems').textContent()).toContain('40503');
    await dialog.getByRole('button', { name: '+ Add portrait' }).click();
    const card = dialog.getByRole('region', { name: /^Portrait 1/ });
    await expect
      .poll(() => card.getByTestId('portrait-problems').textContent())
      .toContain('Portrait 1: 40511');
    await card.getByLabel('Name', { exact: true }).fill('Women 18–45');
    await card.getByLabel('Name', { exact: true }).press('Tab');
    await card.getByLabel(/^Respondents/).fill('250');
    await card.getByLabel(/^Respondents/).press('Tab');
    await card.getByLabel('Filter by: Gender').check();
    await expect
      .poll(() => card.getByTestId('portrait-problems').textContent())
      .toContain('A portrait parameter filter needs at least one condition selected');
    await card.getByLabel('Female').check();
    await card.getByLabel('Filter by: Age').check();
    await card.getByLabel('Age from').fill('18');
    await card.getByLabel('Age from').press('Tab');
    await card.getByLabel('Age to').fill('45');
    await card.getByLabel('Age to').press('Tab');
    await card.getByLabel('Filter by: City').check();
    await card.getByLabel('Find a city').fill('Podolsk');
    await card.getByRole('button', { name: /^\+ Podolsk/ }).click();
    await expect.poll(() => card.getByTestId('portrait-problems').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Done' }).click();

    // The project settings: name and target platforms, then the grouped settings.
    await tool(page, 'projectSettings').click();
    const settings = page.getByRole('dialog', { name: 'Project settings' });
    await settings.getByLabel('Project name').fill('Target one, renamed');
    await settings.getByRole('checkbox').first().check();
    expect(await seriousViolations(page)).toEqual([]);
    await settings.getByRole('button', { name: 'Save name and platforms' }).click();
    await expect
      .poll(() => settings.getByRole('status').first().textContent())
      .toBe('Name and platforms saved');
    await settings.getByRole('button', { name: 'Cancel' }).click();

    await save(page);
    const stored = (await getProject(server, admin, pid)).body.content as ProjectContent;
    expect(stored.portraits).toHaveLength(1);
    expect(stored.portraits[0]).toMatchObject({ name: 'Women 18–45', respondents: 250 });
    expect(stored.portraits[0].params).toEqual([
      { field: 'gender', values: ['female'], min: null, max: null },
      { field: 'age', values: [], min: 18, max: 45 },
      { field: 'city', values: ['MOS:Podolsk'], min: null, max: null },
    ]);

    await tool(page, 'sendModeration').click();
    await page.getByRole('button', { name: 'Agree' }).click();
    await expect
      .poll(
        async () =>
          (
            await server.app.db
              .selectFrom('projects')
              .select('status')
              .where('id', '=', pid)
              .executeTakeFirst()
          )?.status,
      )
      .toBe(ProjectStatus.OnModeration);
    const row = await server.app.db
      .selectFrom('projects')
      .select('name')
      .where('id', '=', pid)
      .executeTakeFirst();
    expect(row?.name).toBe('Target one, renamed');
    expect(errors).toEqual([]);
    await page.context().close();
  }, 180_000);

  it('shows customParams and block settings read-only to a Researcher; a Moderator sets them on moderation', async () => {
    const pid = await insertProject(server, org, { name: 'Reviewed' });
    expect((await saveProject(server, researcher, pid, completeContent(), 0)).status).toBe(200);

    const mine = await open(pid, researcher);
    await selectQuestion(mine.page, 1);
    const params = mine.page.locator('[data-panel]').getByLabel('customParams (JSON)');
    expect(await params.isDisabled()).toBe(true);
    expect(await mine.page.locator('[data-panel]').textContent()).toContain(
      'Only an administrator or a moderator may change customParams',
    );
    await selectBlock(mine.page, 1);
    expect(await mine.page.locator('[data-panel]').getByLabel('callbackUrl').isDisabled()).toBe(true);
    expect(await mine.page.locator('[data-panel]').getByLabel('Block name').isDisabled()).toBe(false);
    expect(await seriousViolations(mine.page)).toEqual([]);
    await mine.page.context().close();

    await server.app.db
      .updateTable('projects')
      .set({ status: ProjectStatus.OnModeration })
      .where('id', '=', pid)
      .execute();
    const moderator = await server.as(Role.Moderator);
    const { page, errors } = await open(pid, moderator);
    await selectQuestion(page, 1);
    const panel = page.locator('[data-panel]');
    expect(await panel.getByLabel('Question text').isDisabled()).toBe(true);
    await panel.getByLabel('customParams (JSON)').fill('{"utm":');
    await expect
      .poll(() => panel.getByRole('alert').first().textContent())
      .toBe('Value must be a valid JSON string');
    await panel.getByLabel('customParams (JSON)').fill('{"utm": "vk"}');
    await panel.getByLabel('customParams (JSON)').press('Tab');
    await expect.poll(() => panel.getByRole('status').last().textContent()).toBe('Moderation settings saved');
    await selectBlock(page, 1);
    await panel.getByLabel('callbackUrl').fill('not a url');
    await expect.poll(() => panel.getByRole('alert').first().textContent()).toBe('Enter a valid url');
    await panel.getByLabel('callbackUrl').fill('https://partner.example.com/done');
    await panel.getByLabel('callbackUrl').press('Tab');
    await expect.poll(() => panel.getByRole('status').last().textContent()).toBe('Moderation settings saved');
    expect(await seriousViolations(page)).toEqual([]);

    const stored = (await getProject(server, moderator, pid)).body.content as ProjectContent;
    expect(stored.questionnaires[0].blocks[0].callbackUrl).toBe('https://partner.example.com/done');
    expect(stored.questionnaires[0].blocks[0].questions[0].customParams).toBe('{"utm": "vk"}');
    // Reopened, the saved values are what the panel shows.
    await page.reload();
    await page.getByRole('tree', { name: 'Questionnaire outline' }).waitFor();
    await selectQuestion(page, 1);
    expect(await panel.getByLabel('customParams (JSON)').inputValue()).toBe('{"utm": "vk"}');
    expect(errors).toEqual([]);
    await page.context().close();
  }, 180_000);
});
