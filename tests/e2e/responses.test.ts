import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import {
  axeFull,
  axeLines,
  filterResponses,
  launchBrowser,
  newContext,
  responsesTotal,
  setEveryoneExcluded,
  signIn,
  startApp,
  watchErrors,
} from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { insertProject } from '../server/content-helpers';
import { Role } from '../../src/domain/roles';
import { ProjectStatus, ProjectType } from '../../src/domain/projects';
import { writeContent } from '../../server/repos/content';
import { sampleContent, seeded } from '../../server/reports/sample';
import { demoReply } from '../../server/reports/demo';
import { recordRespondent } from '../../server/survey/respond';

// The respondents page in Chromium (issue 31). Respondents answer through the runner's own code
// (recordRespondent) with realistic page times; five of them rush through every page and the server
// flags them as speeders. The researcher comes from the report's quality card to the speeders, opens
// one and reads its answers and page times, steps through them by keyboard, excludes all of them
// with a reason and sees the report's counters and a Compare table lose them, then restores them and
// sees the numbers come back. A filtered list's address opens the same list; a moderator reads
// without the controls that change anything; axe-core finds nothing serious on the page and the side
// panel at 1 440 and 360 px.

const content = sampleContent();
const questions = content.questionnaires[0].blocks[0].questions;
const genre = questions[1]; // oneAnswer
const NORMAL = 40;
const SPEEDERS = 5;

describe('the respondents page in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let researcher: Session;
  let moderator: Session;
  let pid: number;
  const speederIds: number[] = [];

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    const org = await server.createOrganization('Acme Research');
    researcher = await server.as(Role.Researcher, { organizationId: org });
    moderator = await server.as(Role.Moderator);
    pid = await insertProject(server, org, {
      status: ProjectStatus.OnRotation,
      type: ProjectType.Target,
      name: 'Player survey',
    });
    await writeContent(server.app.db, pid, 0, content, researcher.user.id);
    const r = seeded(31);
    const start = Date.now() - 3 * 24 * 3600_000;
    // Everyone passes the screening, so every respondent completes.
    const pick = (page: Parameters<typeof demoReply>[1]) =>
      page.question.category === 'screening'
        ? { answers: [page.answers.find((a) => a.screening !== 'deny')!.id] }
        : demoReply(r, page);
    const answer = (i: number, pageMs: () => number) =>
      recordRespondent(server.app.db, {
        projectId: pid,
        source: 'link',
        attributes: { gender: i % 2 ? 'female' : 'male', age: 18 + (i % 40), education: 'higher' },
        pick,
        now: start + i * 600_000,
        pageMs,
      });
    // 25–60 s a page: 5 to 13 minutes for the questionnaire.
    for (let i = 0; i < NORMAL; i++)
      expect((await answer(i, () => 25_000 + r() * 35_000)).status).toBe('completed');
    // A second and a half a page: far under half the median.
    for (let i = 0; i < SPEEDERS; i++) {
      const res = await answer(NORMAL + i, () => 800 + r() * 700);
      expect(res.status).toBe('completed');
      speederIds.push(res.respondentId);
    }
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const counter = (page: Page, name: string) => page.locator(`[data-counter="${name}"]`);
  const number = async (page: Page, name: string) =>
    Number((await counter(page, name).innerText()).replace(/\s/g, ''));
  const panel = (page: Page) => page.locator('[data-respondent-panel]');

  /** The report's counters, the quality card's speeders and the Compare table's base (genre by gender). */
  async function reportNumbers(page: Page) {
    await page.goto(`${server.url}/report?pid=${pid}`);
    await counter(page, 'completed').waitFor();
    const compare = page.locator('[data-crosstab]');
    await page.getByLabel('Rows', { exact: true }).selectOption(genre.id);
    await page.getByLabel('Columns', { exact: true }).selectOption({ label: 'Gender' });
    await compare.waitFor();
    const base = (await compare.locator('tfoot td').allInnerTexts()).filter((t) => t.trim() !== '');
    return {
      completed: await number(page, 'completed'),
      excluded: await number(page, 'excluded'),
      speeders: Number(await page.locator('[data-quality-count="speeder"]').innerText()),
      qualityExcluded: Number(
        await page.locator('[data-quality-excluded]').getAttribute('data-quality-excluded'),
      ),
      compareBase: Number(base[base.length - 1].replace(/\s/g, '')),
      price: Number(await page.locator('[data-price]').getAttribute('data-price')),
    };
  }

  it('from the quality card to the speeders: reads one, steps by keyboard, excludes them all, restores them', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, server, researcher.user.email);

    const before = await reportNumbers(page);
    expect(before).toEqual({
      completed: NORMAL + SPEEDERS,
      excluded: 0,
      speeders: SPEEDERS,
      qualityExcluded: 0,
      compareBase: NORMAL + SPEEDERS,
      price: expect.any(Number),
    });
    expect(before.price).toBeGreaterThan(0);

    // The quality card links to the list of speeders.
    await page.locator('[data-quality-flag="speeder"]').click();
    await page.waitForURL((u) => u.pathname === '/responses' && u.searchParams.get('flag') === 'speeder');
    expect(await responsesTotal(page)).toBe(SPEEDERS);
    expect(await page.getByLabel('Quality flag', { exact: true }).inputValue()).toBe('speeder');
    const rows = page.locator('[data-respondent]');
    await expect.poll(() => rows.count()).toBe(SPEEDERS);
    const listed = (
      await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-respondent'))))
    ).sort();
    expect(listed).toEqual([...speederIds].sort());
    // Each says why, in words.
    for (const row of await rows.all()) {
      await expect.poll(() => row.locator('[data-flag="speeder"]').count()).toBe(1);
      expect(await row.innerText()).toMatch(/Finished in/);
    }

    // Newest first: the last speeder heads the list. It opens in the side panel.
    const first = speederIds[SPEEDERS - 1];
    await page.getByRole('button', { name: `Open respondent ${first}`, exact: true }).click();
    await expect
      .poll(() => panel(page).getByRole('heading', { level: 2 }).first().innerText())
      .toBe(`Respondent ${first}`);
    const answers = panel(page).locator('[data-answer]');
    await expect.poll(() => answers.count()).toBe(questions.length);
    expect(await panel(page).getByText(genre.text, { exact: false }).count()).toBe(1);
    // Page times: a second or two each, as the respondent rushed.
    const seconds = await panel(page)
      .locator('[data-seconds]')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-seconds'))));
    expect(seconds).toHaveLength(questions.length);
    for (const s of seconds) expect(s).toBeGreaterThanOrEqual(0.5);
    for (const s of seconds) expect(s).toBeLessThan(2);
    expect(await panel(page).innerText()).toMatch(/Finished in/);

    // J and K step through the list; Escape closes the panel.
    await page.keyboard.press('j');
    await expect
      .poll(() => panel(page).getByRole('heading', { level: 2 }).first().innerText())
      .toBe(`Respondent ${speederIds[SPEEDERS - 2]}`);
    await page.keyboard.press('k');
    await expect
      .poll(() => panel(page).getByRole('heading', { level: 2 }).first().innerText())
      .toBe(`Respondent ${first}`);
    await page.keyboard.press('Escape');
    await expect.poll(() => panel(page).count()).toBe(0);
    // The list's arrows move through it too, and Enter opens the row the focus is on.
    await page.getByRole('button', { name: `Open respondent ${first}`, exact: true }).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => panel(page).getByRole('heading', { level: 2 }).first().innerText())
      .toBe(`Respondent ${speederIds[SPEEDERS - 2]}`);
    await page.keyboard.press('Escape');

    // Exclude every speeder with a reason.
    await setEveryoneExcluded(page, true, 'Rushed through every page');
    await page.getByText(`Respondents excluded: ${SPEEDERS}`).first().waitFor();
    // They stay in the list (all, excluded too), marked, with the reason.
    await expect.poll(() => page.locator('[data-excluded]').count()).toBe(SPEEDERS);
    expect(await page.locator('[data-excluded]').first().innerText()).toMatch(/Rushed through every page/);

    const after = await reportNumbers(page);
    expect(after).toEqual({
      completed: NORMAL,
      excluded: SPEEDERS,
      speeders: 0,
      qualityExcluded: SPEEDERS,
      compareBase: NORMAL,
      price: expect.any(Number),
    });
    // Excluded completes are not paid for.
    expect(after.price).toBeLessThan(before.price);

    // Restoring brings them back.
    await page.goto(`${server.url}/responses?pid=${pid}&flag=speeder`);
    expect(await responsesTotal(page)).toBe(SPEEDERS);
    await setEveryoneExcluded(page, false, 'Checked again: keep them');
    await page.getByText(`Respondents restored: ${SPEEDERS}`).first().waitFor();
    await expect.poll(() => page.locator('[data-excluded]').count()).toBe(0);
    expect(await reportNumbers(page)).toEqual(before);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it("a filtered, sorted list's address opens the same list", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await signIn(page, server, researcher.user.email);
    await page.goto(`${server.url}/responses?pid=${pid}`);
    expect(await responsesTotal(page)).toBe(NORMAL + SPEEDERS);
    await filterResponses(page, 'Gender', 'Female');
    await expect.poll(() => new URL(page.url()).searchParams.get('gender')).toBe('female');
    await page.getByLabel('Age from', { exact: true }).fill('30');
    await expect.poll(() => new URL(page.url()).searchParams.get('ageMin')).toBe('30');
    // Shortest first.
    await page.getByRole('button', { name: 'Duration', exact: true }).click();
    await page.getByRole('button', { name: 'Duration', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('duration');
    const women30 = await responsesTotal(page);
    expect(women30).toBeGreaterThan(0);
    expect(women30).toBeLessThan(NORMAL + SPEEDERS);
    const order = () =>
      page
        .locator('[data-respondent]')
        .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-respondent')));
    await expect.poll(async () => (await order()).length).toBe(women30);
    const shown = await order();

    const copy = await context.newPage();
    await copy.goto(page.url());
    expect(await responsesTotal(copy)).toBe(women30);
    await expect
      .poll(() =>
        copy
          .locator('[data-respondent]')
          .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-respondent'))),
      )
      .toEqual(shown);
    expect(await copy.getByLabel('Gender', { exact: true }).inputValue()).toBe('female');
    expect(await copy.getByLabel('Age from', { exact: true }).inputValue()).toBe('30');
    expect(await copy.getByRole('columnheader', { name: 'Duration' }).getAttribute('aria-sort')).toBe(
      'ascending',
    );

    // The filtered list downloads: a row per respondent it shows, in both formats.
    const download = async (item: string) => {
      await copy.getByRole('button', { name: 'Download list', exact: true }).click();
      const [file] = await Promise.all([
        copy.waitForEvent('download'),
        copy.getByRole('menuitem', { name: item }).click(),
      ]);
      await copy.getByText('List downloaded').first().waitFor();
      return file;
    };
    const xlsx = await download('XLSX (Excel)');
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(fs.readFileSync((await xlsx.path())!) as unknown as ArrayBuffer);
    expect(wb.getWorksheet('Respondents')!.actualRowCount).toBe(women30 + 1);
    const csv = await download('CSV (comma-separated text)');
    expect(csv.suggestedFilename()).toMatch(/\.csv$/);
    const lines = fs
      .readFileSync((await csv.path())!, 'utf8')
      .trimEnd()
      .split('\r\n');
    expect(lines.length).toBe(women30 + 1);
    await context.close();
  });

  it('a moderator reads the respondents but cannot change them', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await signIn(page, server, moderator.user.email);
    await page.goto(`${server.url}/responses?pid=${pid}`);
    expect(await responsesTotal(page)).toBe(NORMAL + SPEEDERS);
    await page.locator('[data-respondent]').first().waitFor();
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Select everyone/ }).count()).toBe(0);
    await page.locator('[data-open-row]').first().click();
    await panel(page).locator('[data-answer]').first().waitFor();
    expect(
      await panel(page)
        .getByRole('button', { name: /Exclude|Restore|Erase/ })
        .count(),
    ).toBe(0);
    await context.close();
  });

  it('shows every column header whole, in both languages and at both widths', async () => {
    // The header's text against its box: scrollWidth rounds away the fraction of a pixel that cut
    // "Number" to "NUMB…" (54.08 px of text in 54 px) and "Источник" likewise.
    const cut = (page: Page) =>
      page.evaluate(() =>
        [...document.querySelectorAll('[role="columnheader"] .truncate')]
          .filter((el) => {
            const text = document.createRange();
            text.selectNodeContents(el);
            return text.getBoundingClientRect().width > el.getBoundingClientRect().width + 0.01;
          })
          .map((el) => el.textContent),
      );
    for (const locale of ['en', 'ru'] as const)
      for (const width of [1440, 360]) {
        // A fresh profile: the app speaks the browser's language.
        const context = await browser.newContext({ locale, viewport: { width, height: 900 } });
        const page = await context.newPage();
        await signIn(page, server, researcher.user.email);
        await page.goto(`${server.url}/responses?pid=${pid}`);
        await page.locator('[data-respondent]').first().waitFor();
        expect(await cut(page), `${locale} at ${width} px`).toEqual([]);
        await context.close();
      }
  });

  for (const width of [1440, 360])
    it(`has no serious or critical axe-core findings on the page and the side panel at ${width} px`, async () => {
      const context = await browser.newContext({
        locale: 'en',
        viewport: { width, height: 900 },
        bypassCSP: true,
      });
      const page = await context.newPage();
      await signIn(page, server, researcher.user.email);
      await page.goto(`${server.url}/responses?pid=${pid}&flag=speeder`);
      await page.locator('[data-respondent]').first().waitFor();
      const findings = axeLines(await axeFull(page)).map((l) => `page: ${l}`);
      await page.screenshot({ path: `/tmp/responses-${width}.png` });
      // Nothing wider than the page: only the table scrolls sideways, inside its own box.
      const overflow = () =>
        page.evaluate(() => {
          const main = document.querySelector('main')!;
          return main.scrollWidth - main.clientWidth;
        });
      expect(await overflow()).toBe(0);
      if (width === 360) {
        await page.getByRole('button', { name: 'Show filters' }).click();
        await page.getByLabel('Quality flag', { exact: true }).waitFor();
        expect(await overflow()).toBe(0);
        findings.push(...axeLines(await axeFull(page)).map((l) => `filters: ${l}`));
        await page.screenshot({ path: `/tmp/responses-filters-${width}.png` });
        await page.getByRole('button', { name: 'Hide filters' }).click();
      }
      await page.locator('[data-open-row]').first().click();
      await panel(page).locator('[data-answer]').first().waitFor();
      findings.push(...axeLines(await axeFull(page)).map((l) => `panel: ${l}`));
      await page.screenshot({ path: `/tmp/responses-panel-${width}.png` });
      await page.keyboard.press('Escape');
      // The exclusion dialog too.
      await page.getByRole('button', { name: /^Select everyone matching/ }).click();
      await page.getByRole('button', { name: 'Exclude…' }).first().click();
      await page.getByRole('dialog').getByLabel('Reason', { exact: true }).waitFor();
      findings.push(...axeLines(await axeFull(page)).map((l) => `dialog: ${l}`));
      await page.screenshot({ path: `/tmp/responses-dialog-${width}.png` });
      await page.keyboard.press('Escape');
      // The report's Response quality and Field progress cards.
      await page.goto(`${server.url}/report?pid=${pid}`);
      await page.locator('[data-quality]').waitFor();
      await page.locator('[data-field]').waitFor();
      findings.push(...axeLines(await axeFull(page)).map((l) => `report: ${l}`));
      await page.locator('[data-quality]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `/tmp/responses-report-${width}.png`, fullPage: width === 360 });
      await context.close();
      expect(findings).toEqual([]);
    });

  it('erases one respondent at their request: only an anonymous, excluded row stays', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, server, researcher.user.email);
    await page.goto(`${server.url}/responses?pid=${pid}`);
    const total = await responsesTotal(page);
    const target = speederIds[0];
    await page
      .getByRole('button', { name: `Open respondent ${target}`, exact: true })
      .scrollIntoViewIfNeeded();
    await page.getByRole('button', { name: `Open respondent ${target}`, exact: true }).click();
    await panel(page).locator('[data-answer]').first().waitFor();
    await panel(page).getByRole('button', { name: 'Erase data…' }).click();
    const dialog = page.getByRole('dialog', { name: `Erase the data of respondent ${target}?` });
    await dialog.getByRole('button', { name: 'Erase', exact: true }).click();
    await page.getByText(`The data of respondent ${target} has been erased`).first().waitFor();
    // The row stays (totals can be explained), excluded, with nothing left of the person.
    expect(await responsesTotal(page)).toBe(total);
    const row = page.locator(`[data-respondent="${target}"]`);
    await expect.poll(() => row.getAttribute('data-excluded')).toBe('');
    expect(await row.innerText()).toMatch(/Erased at the respondent’s request/);
    await expect.poll(() => panel(page).locator('[data-answer]').count()).toBe(0);
    expect(
      await panel(page)
        .getByRole('button', { name: /Restore|Erase/ })
        .count(),
    ).toBe(0);
    expect(await row.getByRole('checkbox').isDisabled()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
