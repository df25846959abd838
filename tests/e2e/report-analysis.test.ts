import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { axeFull, axeLines, launchBrowser, newContext, signIn, startApp, watchErrors } from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { insertProject } from '../server/content-helpers';
import { parseCsv, psppCsv } from '../server/pspp';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import { writeContent } from '../../server/repos/content';
import {
  insertRespondents,
  sampleContent,
  sampleRespondents,
  type SampleRespondent,
} from '../../server/reports/sample';

// Issue 23 in Chromium: on a project with answers the researcher reads where respondents give up
// (the worst question first, its numbers as a count over the same respondents gives them), pages and
// searches the "Other" texts of a choice question, and downloads the SPSS file, which PSPP reads.
// axe-core's full rule set finds nothing serious on /report at 1440 and 360 px.

const content = sampleContent();
const questions = content.questionnaires[0].blocks[0].questions;
const genre = questions[1]; // oneAnswer with "Other"
const OTHERS = ['Гонки', 'ГОНКИ на выживание', 'Симуляторы', 'Карточные', 'Ферма'];

describe('analysis on the report page', () => {
  let server: TestServer;
  let browser: Browser;
  let researcher: Session;
  let pid: number;
  let people: SampleRespondent[];

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    const org = await server.createOrganization('Acme Research');
    researcher = await server.as(Role.Researcher, { organizationId: org });
    pid = await insertProject(server, org, { status: ProjectStatus.SurveyFinished, name: 'Player survey' });
    await writeContent(server.app.db, pid, 0, content, researcher.user.id);
    people = sampleRespondents(77, 160, content);
    let k = 0;
    for (const p of people) {
      const row = p.answers.find((a) => a.question_id === genre.id);
      if (row && k++ % 4 === 0) {
        row.answer_id = null;
        row.text = OTHERS[k % OTHERS.length];
      }
    }
    await insertRespondents(server.app.db, pid, content.questionnaires[0].id, people);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const otherTexts = () =>
    people.flatMap((p) =>
      p.answers.filter((a) => a.question_id === genre.id && a.text !== null).map((a) => a.text!),
    );
  const card = (page: Page) => page.locator(`[data-question="${genre.id}"]`);

  it('shows where people give up, pages and searches the Other texts, and downloads the .sav', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, server, researcher.user.email);
    await page.goto(`${server.url}/report?pid=${pid}`);
    await page.getByRole('heading', { name: 'Where respondents give up' }).waitFor();

    // The funnel's first row is the question most people gave up at, with a brute-force count.
    const gaveUp = questions.map((q) => ({
      q,
      n: people.filter((p) => p.last_question_id === q.id && p.status === 1).length,
    }));
    const worst = [...gaveUp].sort((a, b) => b.n - a.n)[0];
    expect(worst.n).toBeGreaterThan(0);
    const table = page.getByRole('table', { name: 'The funnel by question, worst first' });
    const first = await table.getByRole('row').nth(1).locator('th, td').allInnerTexts();
    expect(first[0]).toBe(`${questions.indexOf(worst.q) + 1}. ${worst.q.text}`);
    expect(Number(first[3])).toBe(worst.n);
    // The charts come with the chart library's chunk, after the tables, each when near the viewport.
    await page.locator('[data-dropoff] [data-chart="bars"]').scrollIntoViewIfNeeded();
    await expect.poll(() => page.locator('[data-dropoff] [data-chart="bars"] canvas').count()).toBe(1);
    await page.locator('[data-chart="timeline"]').scrollIntoViewIfNeeded();
    await expect.poll(() => page.locator('[data-chart="timeline"] canvas').count()).toBe(1);
    await expect.poll(() => page.locator('[data-timing="median"]').innerText()).toMatch(/min/);

    // The "Other" texts under the choice question: the first page, then the next.
    const all = otherTexts();
    const list = card(page).locator('[data-texts]');
    await expect.poll(() => list.locator('li').allInnerTexts()).toEqual(all.slice(0, 20));
    await list.getByRole('button', { name: 'Next answers' }).click();
    await expect.poll(() => list.locator('li').allInnerTexts()).toEqual(all.slice(20, 40));
    await expect.poll(() => list.getByText(`Answers 21–40 of ${all.length}`).count()).toBe(1);

    // Searched in another case and script: «гонк» finds «Гонки» and «ГОНКИ на выживание».
    await list.getByRole('searchbox', { name: 'Search the answers', exact: true }).fill('гонк');
    await list.getByRole('button', { name: 'Search', exact: true }).click();
    const found = all.filter((t) => t.toLowerCase().includes('гонк'));
    await expect.poll(() => list.locator('li').allInnerTexts()).toEqual(found.slice(0, 20));
    await list.getByRole('searchbox', { name: 'Search the answers', exact: true }).fill('нет такого');
    await list.getByRole('button', { name: 'Search', exact: true }).click();
    await list.getByText('No answers contain “нет такого”').waitFor();
    await list.getByRole('button', { name: 'Clear the search' }).click();
    await expect.poll(() => list.locator('li').allInnerTexts()).toEqual(all.slice(0, 20));

    // The SPSS file: PSPP reads one case per respondent.
    const [sav] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download for SPSS (SAV)' }).click(),
    ]);
    expect(sav.suggestedFilename()).toBe('Player survey.sav');
    const cases = parseCsv(await psppCsv(fs.readFileSync((await sav.path())!)));
    expect(cases[0].slice(0, 3)).toEqual(['ID', 'STATUS', 'PORTRAIT']);
    expect(cases).toHaveLength(people.length + 1);
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const width of [1440, 360]) {
    it(`has no serious or critical axe-core violations at ${width} px`, async () => {
      const context = await browser.newContext({
        locale: 'en',
        viewport: { width, height: 900 },
        bypassCSP: true,
      });
      const page = await context.newPage();
      await signIn(page, server, researcher.user.email);
      await page.goto(`${server.url}/report?pid=${pid}`);
      await page.locator('[data-dropoff] [data-chart="bars"]').scrollIntoViewIfNeeded();
      await page.locator('[data-dropoff] [data-chart="bars"] canvas').waitFor();
      await card(page).locator('[data-texts] li').first().waitFor();
      await page.screenshot({ path: `/tmp/report-analysis-${width}.png`, fullPage: false });
      await page.locator('[data-dropoff]').screenshot({ path: `/tmp/report-dropoff-${width}.png` });
      await card(page).screenshot({ path: `/tmp/report-other-${width}.png` });
      expect(axeLines(await axeFull(page, undefined, '#report'))).toEqual([]);
      await context.close();
    });
  }
});
