import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  launchBrowser,
  newContext,
  signIn,
  startApp,
  watchErrors,
  axeFull,
  axeLines,
  newAuditPage,
} from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { createProject, fillQuestionnaire } from '../server/projects.helpers';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import { allowedTargets } from '../../src/domain/projectStatus';

// Projects in Chromium: a researcher creates a project from each template they may use, sends one
// for moderation (after which it is read-only in the list and on the server), an empty one is
// refused with the translated 40501 text, a direct-link project gives its survey link, and an
// administrator moves a project through moderation with the selector the status machine feeds.

describe('projects in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let org: number;
  let researcher: Session;
  let adminEmail: string;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    org = await server.createOrganization('Acme Research');
    researcher = await server.as(Role.Researcher, { organizationId: org });
    adminEmail = (await server.createUser({ role: Role.Administrator, organizationId: null })).email;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function openAs(email: string): Promise<{ page: Page; errors: string[] }> {
    const page = await (await newContext(browser)).newPage();
    const errors = watchErrors(page);
    await signIn(page, server, email);
    await page.goto(`${server.url}/projects`);
    await page.getByRole('heading', { name: 'Questionnaires' }).waitFor();
    return { page, errors };
  }

  const row = (page: Page, name: string) =>
    page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });

  async function rowAction(page: Page, name: string, action: string) {
    await page.getByRole('button', { name: `Actions for project “${name}”` }).click();
    await page.getByRole('menuitem', { name: action }).click();
  }

  it('lets a researcher create a project from each template they may use', async () => {
    const { page, errors } = await openAs(researcher.user.email);
    for (const [template, name] of [
      ['Audience survey', 'Players about onboarding'],
      ['Target survey', 'Students in Kazan'],
      ['Survey your own audience', 'Our newsletter readers'],
    ]) {
      await page.getByRole('button', { name: 'Create project' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('radio', { name: new RegExp(template) }).check();
      // The Administrator's template is not offered to a researcher.
      expect(await dialog.getByRole('radio', { name: /Direct link \(administrator\)/ }).count()).toBe(0);
      await dialog.getByLabel('Name', { exact: true }).fill(name);
      await dialog.getByRole('button', { name: 'Create', exact: true }).click();
      // Created projects open in the editor.
      await page.waitForURL((u) => u.pathname === '/project' && !!u.searchParams.get('pid'));
      await page.goto(`${server.url}/projects`);
      await expect.poll(() => row(page, name).count()).toBe(1);
      await expect.poll(() => row(page, name).textContent()).toContain(template);
    }
    const { body } = await server.call('GET', '/projects?sort=id&order=asc', { session: researcher });
    expect(body.map((p: { template: string; type: number }) => [p.template, p.type])).toEqual([
      ['default', 1],
      ['target', 2],
      ['directLink', 1],
    ]);
    expect(errors).toEqual([]);
  });

  it('shows the name error from the shared schema before calling the server', async () => {
    const { page } = await openAs(researcher.user.email);
    await page.getByRole('button', { name: 'Create project' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name', { exact: true }).fill('ab');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await expect.poll(() => dialog.getByText('Minimum 3 symbols.').count()).toBe(1);
  });

  it('refuses to send an empty questionnaire with the translated 40501 text', async () => {
    const p = await createProject(server, researcher, { name: 'Still empty' });
    const { page } = await openAs(researcher.user.email);
    await rowAction(page, 'Still empty', 'Send for moderation');
    await page.getByRole('dialog').getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByText('Empty questionnaire').count()).toBeGreaterThan(0);
    const row = await server.app.db
      .selectFrom('projects')
      .select('status')
      .where('id', '=', p.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe(ProjectStatus.Created);
    // Still editable: its details change the target platforms.
    await rowAction(page, 'Still empty', 'Details');
    const details = page.getByRole('dialog');
    await expect.poll(() => details.textContent()).toContain('Can be edited');
    await details.getByRole('checkbox', { name: 'Yandex Games' }).check();
    await details.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(
        async () =>
          (await server.call('GET', `/projects?search=${p.id}`, { session: researcher })).body[0]
            .targetPlatformIds,
      )
      .toEqual([4]);
  });

  it('sends a filled project for moderation after confirmation; it is then read-only', async () => {
    const p = await createProject(server, researcher, { name: 'Ready for review' });
    await fillQuestionnaire(server, researcher, p.id);
    const { page, errors } = await openAs(researcher.user.email);
    await rowAction(page, 'Ready for review', 'Send for moderation');
    const confirmDialog = page.getByRole('dialog');
    await expect.poll(() => confirmDialog.textContent()).toContain('cannot be edited');
    await confirmDialog.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => row(page, 'Ready for review').textContent()).toContain('On moderation');
    expect(await row(page, 'Ready for review').textContent()).toContain('Read-only');
    // Its menu no longer offers editing or sending.
    await page.getByRole('button', { name: 'Actions for project “Ready for review”' }).click();
    expect(await page.getByRole('menuitem', { name: 'Rename' }).count()).toBe(0);
    expect(await page.getByRole('menuitem', { name: 'Send for moderation' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    // The server refuses edits too.
    const edit = await server.call('PUT', '/project', {
      session: researcher,
      body: { id: p.id, name: 'Sneaky edit' },
    });
    expect(edit.status).toBe(409);
    // Its details say so, and show the platforms without letting them change.
    await rowAction(page, 'Ready for review', 'Details');
    const details = page.getByRole('dialog');
    await expect.poll(() => details.textContent()).toContain('Read-only: the project has been sent');
    expect(await details.getByRole('checkbox').count()).toBe(0);
    await details.getByRole('button', { name: 'Close', exact: true }).last().click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    // Settings open read-only for a researcher.
    await rowAction(page, 'Ready for review', 'Settings');
    await expect
      .poll(() => page.getByRole('dialog').getByText('You may not change the settings').count())
      .toBe(1);
    await page.keyboard.press('Escape');
    // The editor opens it read-only: the question is listed, the banner says why, editing is off.
    await page.goto(`${server.url}/project?pid=${p.id}`);
    await expect
      .poll(() => page.locator('[data-readonly-banner]').textContent())
      .toBe('View only. Not editable: On moderation');
    await expect.poll(() => page.getByRole('treeitem', { name: /How often do you play\?/ }).count()).toBe(1);
    expect(await page.locator('[data-tool="addQuestion"]').getAttribute('aria-disabled')).toBe('true');
    expect(errors).toEqual([]);
  });

  it('gives the survey link of a direct-link project, sending it for moderation', async () => {
    const p = await createProject(server, researcher, { name: 'Link survey', template: 'directLink' });
    await fillQuestionnaire(server, researcher, p.id);
    const { page } = await openAs(researcher.user.email);
    await rowAction(page, 'Link survey', 'Get survey link');
    await page.getByRole('dialog').getByRole('button', { name: 'Get link' }).click();
    const link = page.getByRole('dialog').getByLabel('Survey link');
    await expect.poll(() => link.inputValue()).toMatch(/\/s\/[A-Za-z0-9_-]{22}$/);
    const shown = await link.inputValue();
    const fromServer = await server.call('GET', `/project/link?pid=${p.id}`, { session: researcher });
    expect(fromServer.body.link).toBe(shown);
    await page.getByRole('dialog').getByRole('button', { name: 'Close', exact: true }).first().click();
    await expect.poll(() => row(page, 'Link survey').textContent()).toContain('On moderation');
  });

  it('lets the administrator move a project through moderation with the machine’s choices only', async () => {
    const p = await createProject(server, researcher, { name: 'Moderate me' });
    await fillQuestionnaire(server, researcher, p.id);
    expect(
      (
        await server.call('POST', '/project/status', {
          session: researcher,
          body: { pid: p.id, status: ProjectStatus.OnModeration },
        })
      ).status,
    ).toBe(200);

    const { page, errors } = await openAs(adminEmail);
    const select = page.getByLabel('Status of project “Moderate me”');
    const options = await select
      .locator('option')
      .evaluateAll((els) => els.map((e) => Number((e as HTMLOptionElement).value)));
    expect(options).toEqual([ProjectStatus.OnModeration, ...allowedTargets(ProjectStatus.OnModeration)]);

    // On moderation → On moderation VK → On rotation, each after the global confirmation.
    for (const [to, label] of [
      [ProjectStatus.OnModerationVK, 'On moderation VK'],
      [ProjectStatus.OnRotation, 'On rotation'],
    ] as const) {
      await page.getByLabel('Status of project “Moderate me”').selectOption(String(to));
      await page.getByRole('dialog').getByRole('button', { name: 'Agree' }).click();
      await expect
        .poll(
          async () =>
            (
              await server.app.db
                .selectFrom('projects')
                .select('status')
                .where('id', '=', p.id)
                .executeTakeFirstOrThrow()
            ).status,
        )
        .toBe(to);
      await expect
        .poll(() =>
          page.getByLabel('Status of project “Moderate me”').locator('option:checked').textContent(),
        )
        .toBe(label);
    }
    const after = await page
      .getByLabel('Status of project “Moderate me”')
      .locator('option')
      .evaluateAll((els) => els.map((e) => Number((e as HTMLOptionElement).value)));
    expect(after).toEqual([ProjectStatus.OnRotation, ...allowedTargets(ProjectStatus.OnRotation)]);

    // Cancelling leaves the status as it was.
    await page.getByLabel('Status of project “Moderate me”').selectOption(String(ProjectStatus.Paused));
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect
      .poll(() => page.getByLabel('Status of project “Moderate me”').inputValue())
      .toBe(String(ProjectStatus.OnRotation));

    // The running project now has a report to open.
    await page.goto(`${server.url}/reports`);
    await page.getByRole('heading', { name: 'Reports' }).waitFor();
    const open = page.getByRole('link', { name: 'Open report of project “Moderate me”' });
    await open.waitFor();
    expect(await open.getAttribute('href')).toBe(`/report?pid=${p.id}`);
    expect(await page.getByText('Players about onboarding').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('filters the list by status and searches by name', async () => {
    const { page } = await openAs(researcher.user.email);
    await page.getByLabel('Status', { exact: true }).selectOption(String(ProjectStatus.OnModeration));
    await expect.poll(() => row(page, 'Ready for review').count()).toBe(1);
    await expect.poll(() => row(page, 'Still empty').count()).toBe(0);
    await page.getByLabel('Status', { exact: true }).selectOption('');
    await page.getByLabel('Search by name or ID').fill('kazan');
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    expect(await row(page, 'Students in Kazan').count()).toBe(1);
  });

  it('has no serious or critical axe findings (every rule) on /projects (with its create dialog) and /reports', async () => {
    const page = await newAuditPage(browser);
    await signIn(page, server, adminEmail);
    await page.goto(`${server.url}/projects`);
    const audit = async () => axeLines(await axeFull(page));
    await row(page, 'Moderate me').waitFor();
    expect(await audit()).toEqual([]);
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('dialog').getByRole('radio').first().waitFor();
    expect(await audit()).toEqual([]);
    await page.goto(`${server.url}/reports`);
    await page.getByRole('link', { name: 'Open report of project “Moderate me”' }).waitFor();
    expect(await audit()).toEqual([]);
  });
});
