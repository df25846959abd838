import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import { axeFull, axeLines, launchBrowser, newContext, signIn, startApp, watchErrors } from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { insertProject } from '../server/content-helpers';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import { writeContent } from '../../server/repos/content';
import {
  insertRespondents,
  sampleContent,
  sampleRespondents,
  type SampleRespondent,
} from '../../server/reports/sample';

// The report page in Chromium: a researcher opens a project's report from the reports list, sees
// the counters, a chart and a table per question, narrows by a filter and by a portrait and sees the
// numbers change to what a count over the same respondents gives, refreshes after new answers,
// downloads the workbook and the CSV, and follows To project. axe-core finds nothing serious.

const content = sampleContent();
const questions = content.questionnaires[0].blocks[0].questions;
const genre = questions[1]; // oneAnswer

describe('the report page in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let researcher: Session;
  let pid: number;
  let emptyPid: number;
  let people: SampleRespondent[];

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    const org = await server.createOrganization('Acme Research');
    researcher = await server.as(Role.Researcher, { organizationId: org });
    pid = await insertProject(server, org, { status: ProjectStatus.OnRotation, name: 'Player survey' });
    await writeContent(server.app.db, pid, 0, content, researcher.user.id);
    people = sampleRespondents(42, 150, content);
    await insertRespondents(server.app.db, pid, content.questionnaires[0].id, people);
    emptyPid = await insertProject(server, org, { status: ProjectStatus.OnRotation, name: 'Nobody yet' });
    await writeContent(server.app.db, emptyPid, 0, sampleContent(), researcher.user.id);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const counter = (page: Page, name: string) => page.locator(`[data-counter="${name}"]`);
  const genreTable = (page: Page) => page.getByRole('table', { name: 'Numbers of question 2' });

  async function genreCounts(page: Page): Promise<Record<string, number>> {
    const rows = await genreTable(page).getByRole('row').all();
    const out: Record<string, number> = {};
    for (const row of rows.slice(1)) {
      const cells = await row.locator('th, td').allInnerTexts();
      out[cells[0]] = Number(cells[1].replace(/\s/g, ''));
    }
    return out;
  }

  function expectedGenre(list: SampleRespondent[]): Record<string, number> {
    const out: Record<string, number> = {};
    for (const a of genre.answers)
      out[a.text] = list.filter((p) => p.answers.some((x) => x.answer_id === a.id)).length;
    out.Other = list.filter((p) =>
      p.answers.some((x) => x.question_id === genre.id && x.answer_id === null),
    ).length;
    return out;
  }

  it('opens from the reports list, filters, refreshes, downloads and goes to the project', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, server, researcher.user.email);
    await page.goto(`${server.url}/reports`);
    await page.getByRole('link', { name: 'Open report of project “Player survey”' }).click();
    await page.waitForURL(`**/report?pid=${pid}`);
    await page.getByRole('heading', { name: 'Report: Player survey' }).waitFor();

    await expect.poll(() => counter(page, 'started').innerText()).toBe(String(people.length));
    // The charts draw once uPlot's own chunk has arrived, each when it comes near the viewport (issue 25).
    await expect
      .poll(() => page.locator('[data-chart]').count())
      .toBeGreaterThanOrEqual(questions.length - 1);
    for (const box of await page.locator('[data-chart]').all()) await box.scrollIntoViewIfNeeded();
    await expect
      .poll(() => page.locator('[data-chart] canvas').count())
      .toBeGreaterThanOrEqual(questions.length - 1);
    expect(await genreCounts(page)).toEqual(expectedGenre(people));

    // A filter: women only.
    await page.getByLabel('Gender', { exact: true }).selectOption({ label: 'Female' });
    const women = people.filter((p) => p.gender === 'female');
    await expect.poll(() => counter(page, 'started').innerText()).toBe(String(women.length));
    await expect.poll(() => genreCounts(page)).toEqual(expectedGenre(women));

    // And a portrait: women of the first portrait.
    const portrait = content.portraits[0];
    await page.getByLabel('Portrait', { exact: true }).selectOption({ label: portrait.name });
    const young = women.filter((p) => p.portrait_id === portrait.id);
    await expect.poll(() => counter(page, 'started').innerText()).toBe(String(young.length));
    await expect.poll(() => genreCounts(page)).toEqual(expectedGenre(young));

    // New answers arrive; Refresh report shows them.
    const more = sampleRespondents(43, 30, content);
    await insertRespondents(server.app.db, pid, content.questionnaires[0].id, more);
    const youngAfter = [
      ...young,
      ...more.filter((p) => p.gender === 'female' && p.portrait_id === portrait.id),
    ];
    await page.getByRole('button', { name: 'Refresh report' }).click();
    await expect.poll(() => counter(page, 'started').innerText()).toBe(String(youngAfter.length));

    // Downloads, with the filters applied.
    const [xlsx] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download report (XLSX)' }).click(),
    ]);
    expect(xlsx.suggestedFilename()).toBe('Player survey.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(fs.readFileSync((await xlsx.path())!) as unknown as ArrayBuffer);
    expect(wb.getWorksheet('Respondents')!.actualRowCount).toBe(youngAfter.length + 1);

    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download report (CSV)' }).click(),
    ]);
    expect(csv.suggestedFilename()).toBe('Player survey.csv');
    const lines = fs
      .readFileSync((await csv.path())!, 'utf8')
      .trimEnd()
      .split('\r\n');
    expect(lines.length).toBe(youngAfter.length + 1);

    await page.getByRole('link', { name: 'To project' }).click();
    await page.waitForURL(`**/project?pid=${pid}`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says so while no one has answered', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await signIn(page, server, researcher.user.email);
    await page.goto(`${server.url}/report?pid=${emptyPid}`);
    await page.getByRole('heading', { name: 'No one has answered yet' }).waitFor();
    expect(await counter(page, 'started').innerText()).toBe('0');
    await context.close();
  });

  it('has no serious or critical axe-core violations', async () => {
    const context = await browser.newContext({
      locale: 'en',
      viewport: { width: 1280, height: 800 },
      bypassCSP: true,
    });
    const page = await context.newPage();
    await signIn(page, server, researcher.user.email);
    await page.goto(`${server.url}/report?pid=${pid}`);
    // The quality and field cards sit above the charts, which draw once scrolled near.
    await page.locator('[data-chart]').first().scrollIntoViewIfNeeded();
    await page.locator('[data-chart] canvas').first().waitFor();
    // Every section rendered (they come one per task), so the audit sees the whole report.
    await expect
      .poll(() => page.locator('[data-chart]').count())
      .toBeGreaterThanOrEqual(questions.length - 1);
    // The report itself; the shell around it (header, side menu) is audited by its own tests.
    const violations = axeLines(await axeFull(page, undefined, '#report'));
    expect(violations).toEqual([]);
    await context.close();
  });
});
