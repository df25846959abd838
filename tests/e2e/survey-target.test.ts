import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { axeFull, axeLines, launchBrowser, signIn, startApp, watchErrors } from './helpers';
import type { TestServer } from '../server/helpers';
import { insertSurveyProject, surveyContent } from '../server/survey-fixtures';
import { completeContent, insertProject, saveProject } from '../server/content-helpers';
import { setStatus } from '../server/projects.helpers';
import { newPortrait } from '../../src/domain/content/factory';
import { ProjectStatus, ProjectType } from '../../src/domain/projects';
import { Role } from '../../src/domain/roles';

// A target project's survey link at 360 px (issue #26): it asks who the visitor is first (no way to
// skip), takes a visitor who fits a portrait with room into the survey, and tells one who fits none,
// in plain words, that the survey looks for other participants. The editor's "Get survey link"
// dialog says so too.

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function phone(): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const ctx = await browser.newContext({
    locale: 'en',
    viewport: { width: 360, height: 740 },
    bypassCSP: true,
  });
  const page = await ctx.newPage();
  return { page, errors: watchErrors(page), close: () => ctx.close() };
}

async function noOverflow(page: Page) {
  const wide = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(wide).toBeLessThanOrEqual(0);
}

const portraits = () => [
  newPortrait({
    id: 'young',
    respondents: 50,
    params: [{ field: 'age', values: [], min: 14, max: 29 }],
  }),
];

describe("a target project's survey link at 360 px", () => {
  it('asks the profile step with no skip, then takes a visitor who fits into the survey', async () => {
    const { link } = await insertSurveyProject(server, surveyContent(portraits()), { template: 'target' });
    const { page, errors, close } = await phone();
    await page.goto(`${server.url}/s/${link}`);
    await page.getByRole('heading', { name: 'About you' }).waitFor();
    const main = page.getByRole('main');
    expect(await main.textContent()).toContain('This survey is for particular participants.');
    expect(await main.getByRole('button', { name: 'Skip' }).count()).toBe(0);
    // Age is what the portraits ask about: the step cannot be sent without it.
    const age = main.getByLabel('Age');
    expect(await age.evaluate((e) => (e as HTMLInputElement).required)).toBe(true);
    await main.getByRole('button', { name: 'Start' }).click();
    expect(await page.getByRole('heading', { name: 'About you' }).isVisible()).toBe(true);
    expect(await age.evaluate((e) => (e as HTMLInputElement).validity.valueMissing)).toBe(true);
    expect(axeLines(await axeFull(page))).toEqual([]);
    await noOverflow(page);
    await page.screenshot({ path: '/tmp/target-link-profile-360.png', fullPage: true });

    await age.fill('22');
    await main.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('heading', { name: 'Do you play games?' }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('tells a visitor who fits no portrait that the survey looks for other participants', async () => {
    const { link } = await insertSurveyProject(server, surveyContent(portraits()), { template: 'target' });
    const { page, errors, close } = await phone();
    await page.goto(`${server.url}/s/${link}`);
    await page.getByRole('heading', { name: 'About you' }).waitFor();
    await page.getByRole('main').getByLabel('Age').fill('55');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('heading', { name: 'This survey is for other participants' }).waitFor();
    const text = (await page.getByRole('main').textContent()) ?? '';
    expect(text).toContain('looks for participants with a different profile');
    expect(text).not.toContain('enough answers');
    expect(axeLines(await axeFull(page))).toEqual([]);
    await noOverflow(page);
    await page.screenshot({ path: '/tmp/target-link-nomatch-360.png', fullPage: true });
    expect(errors).toEqual([]);
    await close();
  });

  it("the editor's Get survey link dialog says what a target project's link does", async () => {
    const org = await server.createOrganization('Target Org');
    const anna = await server.as(Role.Researcher, { organizationId: org });
    const pid = await insertProject(server, org, { type: ProjectType.Target });
    expect((await saveProject(server, anna, pid, completeContent(true), 0)).status).toBe(200);
    const { page, errors, close } = await phone();
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, server, anna.user.email);
    await page.goto(`${server.url}/project?pid=${pid}`);
    await expect
      .poll(() => page.locator('[role="status"][data-state]').textContent(), { timeout: 30_000 })
      .toBe('All changes saved');
    await page.locator('[data-tool="surveyLink"]').first().click();
    await page.getByRole('dialog').getByRole('button', { name: 'Agree' }).click();
    const dialog = page.getByRole('dialog', { name: 'Survey link' });
    await dialog.waitFor();
    expect(await dialog.getByTestId('link-note').textContent()).toContain(
      'it first asks for gender, age, city and education (not skippable)',
    );
    expect(await dialog.getByLabel('Survey link').inputValue()).toMatch(/\/s\/[A-Za-z0-9_-]+$/);
    expect(errors).toEqual([]);
    await close();
  });

  it("the projects list's Get survey link says the same of a target project", async () => {
    const org = await server.createOrganization('Target List Org');
    const boris = await server.as(Role.Researcher, { organizationId: org });
    const pid = await insertProject(server, org, { type: ProjectType.Target, name: 'Target list' });
    expect((await saveProject(server, boris, pid, completeContent(true), 0)).status).toBe(200);
    await setStatus(server, pid, ProjectStatus.OnModeration);
    const { page, errors, close } = await phone();
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, server, boris.user.email);
    await page.goto(`${server.url}/projects`);
    await page.getByRole('button', { name: 'Actions for project “Target list”' }).click();
    await page.getByRole('menuitem', { name: 'Get survey link' }).click();
    const dialog = page.getByRole('dialog', { name: 'Survey link' });
    await dialog.getByLabel('Survey link').waitFor();
    expect(await dialog.getByTestId('link-note').textContent()).toContain('not skippable');
    expect(errors).toEqual([]);
    await close();
  });
});
