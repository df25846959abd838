import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { axeFull, axeLines, launchBrowser, signIn, startApp, watchErrors } from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { insertProject } from '../server/content-helpers';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import { writeContent } from '../../server/repos/content';
import { recordRespondent } from '../../server/survey/respond';
import { sampleContent } from '../../server/reports/sample';
import { withEnglish } from '../../server/reports/sample-english';
import type { Page as FlowPage, Reply } from '../../src/domain/flow';

// The report of a questionnaire in Russian and English in Chromium (issue 32): two respondents,
// one in each language, recorded through the runner's own path; the report's texts in the reader's
// language, Compare shows a question by questionnaire language with both respondents counted, the
// language filter leaves one; axe finds nothing serious with the table open.

const content = withEnglish(sampleContent());
const genre = content.questionnaires[0].blocks[0].questions[1];

/** Every page answered with its first answer (or a middle value). */
function pick(page: FlowPage): Reply {
  const q = page.question;
  if (q.category === 'fewAnswers') return { answers: [page.answers[0].id] };
  if (q.category === 'sortable') return { answers: page.answers.map((a) => a.id) };
  if (q.category === 'matrix')
    return { cells: Object.fromEntries(page.statements.map((s) => [s.id, page.answers[0].id])) };
  if (q.category === 'open') return { text: 'ok' };
  if (q.category === 'regionAuto') return { text: 'MOS' };
  if (q.category === 'cityAuto') return { text: 'MOS:Podolsk' };
  if (q.scale) return { value: q.scale.min };
  if (q.stars) return { value: 3 };
  return { answers: [page.answers[0].id] };
}

describe('the report of a questionnaire in two languages', () => {
  let server: TestServer;
  let browser: Browser;
  let researcher: Session;
  let pid: number;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    const org = await server.createOrganization('Bilingual studio');
    researcher = await server.as(Role.Researcher, { organizationId: org });
    pid = await insertProject(server, org, { status: ProjectStatus.OnRotation, name: 'Two languages' });
    await writeContent(server.app.db, pid, 0, { ...content, portraits: [] }, researcher.user.id);
    for (const language of ['en', 'ru']) {
      const res = await recordRespondent(server.app.db, { projectId: pid, source: 'link', language, pick });
      expect(res.status).toBe('completed');
    }
    await server.app.db
      .updateTable('projects')
      .set({ status: ProjectStatus.SurveyFinished })
      .where('id', '=', pid)
      .execute();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const compare = (page: import('playwright-core').Page) =>
    page.goto(`${server.url}/report?pid=${pid}&rows=${genre.id}&cols=language`);

  /** The researcher signed in, reading in `locale` at `width` px. */
  async function reader(locale: 'en' | 'ru', width: number) {
    const context = await browser.newContext({ locale, viewport: { width, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, server, researcher.user.email);
    return { context, page, errors };
  }

  it('compares a question by language with both respondents counted, and filters by language', async () => {
    const { context, page, errors } = await reader('en', 1440);
    await compare(page);
    const table = page.locator('[data-crosstab]');
    await table.waitFor();
    // The reader's interface is English: the texts are the questionnaire's English ones.
    expect(await page.getByLabel('Rows', { exact: true }).locator('option:checked').innerText()).toBe(
      '2. Which genre do you like best?',
    );
    const heads = await table.locator('thead th[scope="col"]').allInnerTexts();
    // The header's accessible text comes first: "A, Russian, n = 1, …" (the visible letter, name and base follow).
    expect(heads[1]).toMatch(/^A, Russian, n = 1\b/);
    expect(heads[2]).toMatch(/^B, English, n = 1\b/);
    // Both picked «Puzzles» (the first answer): one in each column, two in all.
    const puzzles = table.getByRole('row', { name: /^Puzzles/ });
    const cells = (await puzzles.locator('td').allInnerTexts()).map((c) => c.replace(/\s+/g, ' ').trim());
    expect(cells).toEqual(['100 % (1)', '100 % (1)', '2']);
    expect(axeLines(await axeFull(page))).toEqual([]);

    // The language filter: the English respondent alone.
    await page.getByLabel('Questionnaire language', { exact: true }).selectOption({ label: 'English' });
    await expect.poll(() => page.url()).toContain('language=en');
    await expect
      .poll(async () => (await table.locator('thead th[scope="col"]').allInnerTexts()).length)
      .toBe(3);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the respondents list opened from the filtered report keeps its language filter', async () => {
    const { context, page, errors } = await reader('en', 1440);
    await page.goto(`${server.url}/responses?pid=${pid}&language=en`);
    await page.getByText('Matching the filters: 1').waitFor();
    const filter = page.getByLabel('Questionnaire language', { exact: true });
    expect(await filter.locator('option:checked').innerText()).toBe('English');
    await filter.selectOption({ label: 'Russian' });
    await expect.poll(() => page.url()).toContain('language=ru');
    await page.getByText('Matching the filters: 1').waitFor();
    // The respondent's panel says which language they answered in (the list's filter alone did).
    await page.getByRole('button', { name: /^Open respondent \d+$/ }).click();
    const language = page.locator('[data-respondent-panel] dt', { hasText: 'Questionnaire language' });
    await expect.poll(() => language.locator('xpath=following-sibling::dd').innerText()).toBe('Russian');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a Russian reader reads the Russian texts, at 360 px with nothing serious for axe', async () => {
    const { context, page } = await reader('ru', 360);
    await compare(page);
    const table = page.locator('[data-crosstab]');
    await table.waitFor();
    const heads = await table.locator('thead th[scope="col"]').allInnerTexts();
    expect(heads[1]).toMatch(/^A, Русский, n = 1\b/);
    expect(heads[2]).toMatch(/^B, Английский, n = 1\b/);
    expect(await table.getByRole('row', { name: new RegExp(`^${genre.answers[0].text}`) }).count()).toBe(1);
    expect(axeLines(await axeFull(page))).toEqual([]);
    await context.close();
  });
});
