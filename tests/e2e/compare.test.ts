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
import { insertRespondents, sampleContent, sampleRespondents } from '../../server/reports/sample';

// The report's Compare section in Chromium (issue 23): a researcher compares a question by gender on
// a project with answers, sees the letters and the plain sentence, copies the address into a new page
// and gets the same view (filters, rows, columns), downloads the table as XLSX; axe-core's full rule
// set finds nothing serious with the crosstab open at 1 440 and 360 px.

const content = sampleContent();
const questions = content.questionnaires[0].blocks[0].questions;
const genre = questions[1]; // oneAnswer: «Головоломки», «Стратегии», …
const puzzles = genre.answers[0];
const young = content.portraits[0];

describe('the Compare section in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let researcher: Session;
  let pid: number;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    const org = await server.createOrganization('Acme Research');
    researcher = await server.as(Role.Researcher, { organizationId: org });
    pid = await insertProject(server, org, { status: ProjectStatus.SurveyFinished, name: 'Player survey' });
    await writeContent(server.app.db, pid, 0, content, researcher.user.id);
    // Women mostly like puzzles here, men less often: a difference no test can miss.
    const people = sampleRespondents(7, 400, content).map((p, i) => ({
      ...p,
      answers: p.answers.map((a) =>
        a.question_id === genre.id
          ? {
              ...a,
              text: null,
              answer_id:
                (p.gender === 'female' && i % 4 !== 0) || i % 6 === 0
                  ? puzzles.id
                  : genre.answers[1 + (i % 3)].id,
            }
          : a,
      ),
    }));
    await insertRespondents(server.app.db, pid, content.questionnaires[0].id, people);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const table = (page: Page) => page.locator('[data-crosstab]');

  async function compareByGender(page: Page) {
    await page.goto(`${server.url}/report?pid=${pid}`);
    await page.getByRole('heading', { name: 'Compare' }).waitFor();
    await page.getByLabel('Portrait', { exact: true }).selectOption({ label: young.name });
    await page.getByLabel('Rows', { exact: true }).selectOption(genre.id);
    await page.getByLabel('Columns', { exact: true }).selectOption({ label: 'Gender' });
    await table(page).waitFor();
  }

  it('compares a question by gender, in words too; a copied address opens the same view; downloads', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, server, researcher.user.email);
    await compareByGender(page);

    // Each column's header reads as "A, Men, n = 12" to a screen reader, not "AMenn = 12" (issue 34),
    // and still shows the letter, the name and the base as before.
    const heads = table(page).locator('thead');
    await expect.poll(() => heads.ariaSnapshot()).toMatch(/columnheader "A, Men, n = \d+"/);
    expect(await heads.ariaSnapshot()).toMatch(/columnheader "B, Women, n = \d+"/);
    const shown = await heads.locator('th[scope="col"] > [aria-hidden="true"]').allInnerTexts();
    expect(shown[0]).toMatch(/^A\s*Men\s*n = \d+$/);
    // Women's «Головоломки» cell carries the letter of the men's column.
    const puzzlesRow = table(page).getByRole('row', { name: new RegExp(`^${puzzles.text}`) });
    await expect.poll(() => puzzlesRow.locator('[data-letters]').allInnerTexts()).toEqual(['A']);
    const finding = page.locator('[data-finding]').first();
    expect(await finding.innerText()).toMatch(
      new RegExp(
        `^Women chose «${puzzles.text}» more often than men: [\\d.]+ % against [\\d.]+ %, p < 0\\.001$`,
      ),
    );
    expect(await page.getByText(/Letters in a cell: its share is significantly larger/).count()).toBe(1);

    const url = page.url();
    expect(url).toContain(`rows=${genre.id}`);
    expect(url).toContain('cols=gender');
    expect(url).toContain(`portrait=${young.id}`);
    const tableText = await table(page).innerText();
    const findingText = await finding.innerText();

    // The same address in a new page: the same filters, rows, columns and numbers.
    const copy = await context.newPage();
    await copy.goto(url);
    await table(copy).waitFor();
    expect(await table(copy).innerText()).toBe(tableText);
    expect(await copy.locator('[data-finding]').first().innerText()).toBe(findingText);
    expect(await copy.getByLabel('Portrait', { exact: true }).inputValue()).toBe(young.id);
    expect(await copy.getByLabel('Rows', { exact: true }).inputValue()).toBe(genre.id);
    expect(await copy.getByLabel('Columns', { exact: true }).inputValue()).toBe('gender');
    await copy.close();

    const [xlsx] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the table (XLSX)' }).click(),
    ]);
    expect(xlsx.suggestedFilename()).toMatch(/^Player survey - 2\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(fs.readFileSync((await xlsx.path())!) as unknown as ArrayBuffer);
    const lines: unknown[][] = [];
    wb.worksheets[0].eachRow((r) => lines.push((r.values as unknown[]).slice(1)));
    const row = lines.find((l) => l[0] === puzzles.text)!;
    expect(row[6]).toBe('A'); // the women's column: count, %, letters
    const womenCount = Number(
      (await puzzlesRow.locator('[data-cell="0:1"]').innerText()).match(/\((\d+)\)/)![1],
    );
    expect(row[4]).toBe(womenCount);
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const width of [1440, 360]) {
    it(`has no serious or critical axe-core violations with a crosstab open at ${width} px`, async () => {
      const context = await browser.newContext({
        locale: 'en',
        viewport: { width, height: 900 },
        bypassCSP: true,
      });
      const page = await context.newPage();
      await signIn(page, server, researcher.user.email);
      await compareByGender(page);
      await page.locator('[data-chart="grouped"] canvas').waitFor();
      await page.locator('[data-compare]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `/tmp/crosstab-compare-${width}.png`, fullPage: false });
      const violations = axeLines(await axeFull(page, undefined, '#report'));
      expect(violations).toEqual([]);
      await context.close();
    });
  }
});
