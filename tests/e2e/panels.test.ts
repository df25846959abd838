import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newAuditPage, signIn, startApp, watchErrors } from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { getProject, insertProject, saveProject } from '../server/content-helpers';
import { Role } from '../../src/domain/roles';
import { newAnswer, newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
import type { ProjectContent, Question } from '../../src/domain/content/model';
import { expectSaveState, fill, panel, save, selectQuestion, seriousViolations } from './panels-helpers';

// The item panels in Chromium: a question of every category built with every field a user can set,
// saved, reloaded and all back on screen; axe-core finds nothing serious on any of them.

const CATEGORY_NAMES = [
  'One answer',
  'Few answers',
  'Screening',
  'Qualification',
  'Numeric range',
  'Open',
  'Star rating',
  'Slider',
  'NPS',
  'Ranking',
  'Matrix',
  'Region',
  'City',
];

async function chooseCategory(page: Page, name: string) {
  await panel(page).getByTestId('category-button').click();
  await page.getByRole('option', { name: new RegExp(`^${name}\\b`) }).click();
  await expect.poll(() => panel(page).getByTestId('category-button').textContent()).toContain(name);
}

/** Pastes text into a field as a user's Ctrl+V would deliver it. */
async function paste(page: Page, label: string, text: string) {
  const input = panel(page).getByLabel(label, { exact: true });
  await input.focus();
  await input.evaluate((el, text) => {
    const data = new DataTransfer();
    data.setData('text/plain', text);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

async function addAnswers(page: Page, texts: string[]) {
  await panel(page).getByRole('button', { name: '+ Add answer' }).click();
  for (const [i, t] of texts.entries()) {
    await page.keyboard.type(t);
    if (i < texts.length - 1) await page.keyboard.press('Enter');
  }
  await page.keyboard.press('Tab');
}

const value = (page: Page, label: string) =>
  panel(page).getByLabel(label, { exact: true }).first().inputValue();

describe('item panels in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let org: number;
  let admin: Session;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    org = await server.createOrganization('Panels Org');
    admin = await server.as(Role.Administrator, { organizationId: org });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function openEditor(content: ProjectContent, session = admin) {
    const pid = await insertProject(server, org, { name: 'Panels' });
    expect((await saveProject(server, session, pid, content, 0)).status).toBe(200);
    const page = await newAuditPage(browser);
    const errors = watchErrors(page);
    await signIn(page, server, session.user.email);
    await page.goto(`${server.url}/project?pid=${pid}`);
    await expectSaveState(page, 'All changes saved');
    return { page, errors, pid };
  }

  it('builds a question of every category with every field, saves, reloads and shows it all again', async () => {
    const questions = CATEGORY_NAMES.map((_, i) => newQuestion({ text: `Q${i + 1}` }));
    const { page, errors, pid } = await openEditor({
      questionnaires: [newQuestionnaire({ blocks: [newBlock({ questions })] })],
      portraits: [],
    });
    const audits: string[] = [];
    const audit = async (what: string) =>
      audits.push(...(await seriousViolations(page)).map((v) => `${what}: ${v}`));

    // 1 One answer: answers, "other" with a label, shuffle, a redirect on an answer.
    await selectQuestion(page, 1);
    await fill(page, 'Question text', 'Do you play games?');
    await addAnswers(page, ['Yes', 'No', 'Sometimes']);
    await panel(page).getByLabel('An “Other” option with its own answer').check();
    await fill(page, 'Label of the “Other” option', 'Something else');
    await panel(page).getByLabel('Order of answers').selectOption({ label: 'Shuffle except last' });
    await expect.poll(() => panel(page).getByTestId('shuffle-preview').textContent()).toMatch(/, 3$/);
    await panel(page)
      .getByLabel('Redirect after answer 2: Where to')
      .selectOption({ label: 'Complete current block' });
    await audit('one answer');

    // 2 Few answers: answers pasted as lines (one edit), the answer count limit with its live messages.
    await selectQuestion(page, 2);
    await chooseCategory(page, 'Few answers');
    await panel(page).getByRole('button', { name: '+ Add answer' }).click();
    await paste(page, 'Answer 1', 'Red\nGreen\nBlue\n');
    await expect.poll(() => value(page, 'Answer 3')).toBe('Blue');
    await panel(page).getByLabel('Limit the number of answers').check();
    await fill(page, 'Maximum answers', '5');
    await expect
      .poll(() => panel(page).getByTestId('limit-error').textContent())
      .toBe('The maximum number of replies has been exceeded, disable the reply limit or adjust the value');
    await fill(page, 'Minimum answers', '4');
    await expect
      .poll(() => panel(page).getByTestId('limit-error').textContent())
      .toBe('Missing number of responses, disable the response limit or adjust the value');
    await fill(page, 'Minimum answers', '1');
    await fill(page, 'Maximum answers', '2');
    await expect.poll(() => panel(page).getByTestId('limit-error').count()).toBe(0);
    await audit('few answers');

    // 3 Screening: the screening mode of each answer.
    await selectQuestion(page, 3);
    await chooseCategory(page, 'Screening');
    await addAnswers(page, ['Adult', 'Minor']);
    await panel(page).getByLabel('Screening of answer 2').selectOption({ label: 'Deny' });
    await audit('screening');

    // 4 Qualification.
    await selectQuestion(page, 4);
    await chooseCategory(page, 'Qualification');
    await addAnswers(page, ['Gamer', 'Not a gamer']);

    // 5 Numeric range.
    await selectQuestion(page, 5);
    await chooseCategory(page, 'Numeric range');
    await fill(page, 'Minimum', '18');
    await fill(page, 'Maximum', '65');
    await audit('range');

    // 6 Open: the answer length.
    await selectQuestion(page, 6);
    await chooseCategory(page, 'Open');
    await panel(page).getByLabel('Limit the answer length').check();
    await fill(page, 'Minimum characters', '10');
    await fill(page, 'Maximum characters', '300');

    // 7 Stars.
    await selectQuestion(page, 7);
    await chooseCategory(page, 'Star rating');
    await fill(page, 'Number of stars (3 to 10)', '7');

    // 8 Slider.
    await selectQuestion(page, 8);
    await chooseCategory(page, 'Slider');
    await fill(page, 'Maximum', '50');
    await fill(page, 'Step', '5');

    // 9 NPS with its end labels.
    await selectQuestion(page, 9);
    await chooseCategory(page, 'NPS');
    await fill(page, 'Label at 0', 'Never');
    await fill(page, 'Label at 10', 'Surely');
    await audit('nps');

    // 10 Ranking.
    await selectQuestion(page, 10);
    await chooseCategory(page, 'Ranking');
    await addAnswers(page, ['Price', 'Quality', 'Speed']);
    // Reorder with the keyboard: Speed goes first.
    await panel(page).getByLabel('Answer 3', { exact: true }).focus();
    await page.keyboard.press('Alt+ArrowUp');
    await page.keyboard.press('Alt+ArrowUp');
    await expect.poll(() => value(page, 'Answer 1')).toBe('Speed');

    // 11 Matrix: rows × columns.
    await selectQuestion(page, 11);
    await chooseCategory(page, 'Matrix');
    await panel(page).getByRole('button', { name: '+ Add row' }).click();
    await panel(page).getByRole('button', { name: '+ Add row' }).click();
    await fill(page, 'Row 1', 'Graphics');
    await fill(page, 'Row 2', 'Sound');
    await addAnswers(page, ['Good', 'Bad']);
    await audit('matrix');

    // 12 Region.
    await selectQuestion(page, 12);
    await chooseCategory(page, 'Region');

    // 13 City within a region found through the lookup; and the fields every question has.
    await selectQuestion(page, 13);
    await chooseCategory(page, 'City');
    await panel(page).getByLabel('Find a region by one of its cities').fill('Podolsk');
    await panel(page)
      .getByRole('button', { name: /^Only cities of region/ })
      .first()
      .click();
    await expect.poll(() => panel(page).textContent()).toContain('Only cities of region: MOS');
    await panel(page).getByLabel('Recall filter', { exact: true }).check();
    await panel(page).getByLabel('From question').selectOption({ label: 'Question 1: Do you play games?' });
    await panel(page).getByLabel('Show').selectOption({ label: 'answers the respondent did not pick' });
    await panel(page).getByLabel('Write the answer to the database').check();
    await fill(page, 'Fields to write (comma separated)', 'city, region_code');
    const params = panel(page).getByLabel('customParams (JSON)');
    await params.fill('{"a": ');
    await expect
      .poll(() => panel(page).getByRole('alert').first().textContent())
      .toBe('Value must be a valid JSON string');
    await params.fill('{"a": 1}');
    await params.press('Tab');
    await audit('city');

    await save(page);
    expect(audits).toEqual([]);

    // Everything is on the server…
    const stored = (await getProject(server, admin, pid)).body.content as ProjectContent;
    const qs = stored.questionnaires[0].blocks[0].questions;
    const byNumber = (n: number): Question => qs[n - 1];
    expect(qs.map((q) => q.category)).toEqual([
      'oneAnswer',
      'fewAnswers',
      'screening',
      'qualification',
      'fromTo',
      'open',
      'starRating',
      'slider',
      'nps',
      'sortable',
      'matrix',
      'regionAuto',
      'cityAuto',
    ]);
    expect(byNumber(1)).toMatchObject({
      text: 'Do you play games?',
      other: 'Something else',
      shuffle: 'shuffleExceptLast',
    });
    expect(byNumber(1).answers[1].redirect).toEqual({ kind: 'completeBlock', target: null });
    expect(byNumber(2).answers.map((a) => a.text)).toEqual(['Red', 'Green', 'Blue']);
    expect(byNumber(2).answerLimit).toEqual({ min: 1, max: 2 });
    expect(byNumber(3).answers.map((a) => a.screening)).toEqual(['allow', 'deny']);
    expect(byNumber(5).scale).toEqual({ min: 18, max: 65, step: 1 });
    expect(byNumber(6).textLength).toEqual({ min: 10, max: 300 });
    expect(byNumber(7).stars).toBe(7);
    expect(byNumber(8).scale).toEqual({ min: 0, max: 50, step: 5 });
    expect(byNumber(9).scaleLabels).toEqual({ min: 'Never', max: 'Surely' });
    expect(byNumber(10).answers.map((a) => a.text)).toEqual(['Speed', 'Price', 'Quality']);
    expect(byNumber(11).statements.map((s) => s.text)).toEqual(['Graphics', 'Sound']);
    expect(byNumber(13)).toMatchObject({
      region: 'MOS',
      recall: { questionId: byNumber(1).id, mode: 'notSelected' },
      writeToDb: true,
      dbFields: ['city', 'region_code'],
      customParams: '{"a": 1}',
    });

    // …and back on screen after a reload.
    await page.reload();
    await expectSaveState(page, 'All changes saved');
    await selectQuestion(page, 1);
    expect(await value(page, 'Question text')).toBe('Do you play games?');
    expect(await value(page, 'Label of the “Other” option')).toBe('Something else');
    expect(await value(page, 'Redirect after answer 2: Where to')).toBe('completeBlock');
    await selectQuestion(page, 2);
    expect(await value(page, 'Answer 2')).toBe('Green');
    expect(await value(page, 'Maximum answers')).toBe('2');
    await selectQuestion(page, 3);
    expect(await value(page, 'Screening of answer 2')).toBe('deny');
    await selectQuestion(page, 6);
    expect(await value(page, 'Maximum characters')).toBe('300');
    await selectQuestion(page, 7);
    expect(await value(page, 'Number of stars (3 to 10)')).toBe('7');
    await selectQuestion(page, 8);
    expect(await value(page, 'Step')).toBe('5');
    await selectQuestion(page, 9);
    expect(await value(page, 'Label at 10')).toBe('Surely');
    await selectQuestion(page, 11);
    expect(await value(page, 'Row 2')).toBe('Sound');
    await selectQuestion(page, 13);
    expect(await value(page, 'Fields to write (comma separated)')).toBe('city, region_code');
    expect(await value(page, 'customParams (JSON)')).toBe('{"a": 1}');
    expect(await value(page, 'Show')).toBe('notSelected');
    expect(errors).toEqual([]);
    await page.context().close();
  }, 240_000);

  it('uploads a picture for a question and an answer, shows them, and refuses a bad file before sending it', async () => {
    const { page, errors, pid } = await openEditor({
      questionnaires: [
        newQuestionnaire({
          blocks: [
            newBlock({
              questions: [newQuestion({ text: 'Pick a cover', answers: [newAnswer({ text: 'A' })] })],
            }),
          ],
        }),
      ],
      portraits: [],
    });
    await selectQuestion(page, 1);
    const uploads: string[] = [];
    page.on('request', (r) => r.url().endsWith('/picture') && uploads.push(r.method()));
    await panel(page)
      .getByLabel('Choose a picture: Block 1 › Question 1', { exact: true })
      .setInputFiles({
        name: 'notes.png',
        mimeType: 'image/png',
        buffer: Buffer.from('just text, not a picture'),
      });
    await expect
      .poll(() => panel(page).getByRole('alert').first().textContent())
      .toBe('Block 1 › Question 1: File “notes.png” is not a JPEG, PNG, WebP or GIF image');
    expect(uploads).toEqual([]);

    await panel(page)
      .getByLabel('Choose a picture: Block 1 › Question 1', { exact: true })
      .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
    const thumb = panel(page).getByRole('img', { name: 'Picture: Block 1 › Question 1', exact: true });
    await thumb.waitFor();
    expect(await thumb.getAttribute('src')).toMatch(/^\/api\/v1\/service\/pictures\/[0-9a-f]{64}\.png$/);
    await expect
      .poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(1);
    await panel(page)
      .getByLabel('Choose a picture: Block 1 › Question 1 › Answer 1', { exact: true })
      .setInputFiles({ name: 'a.png', mimeType: 'image/png', buffer: PNG });
    await panel(page).getByRole('img', { name: 'Picture: Block 1 › Question 1 › Answer 1' }).waitFor();
    expect(uploads).toEqual(['POST', 'POST']);
    expect(await seriousViolations(page)).toEqual([]);
    await save(page);
    const q = ((await getProject(server, admin, pid)).body.content as ProjectContent).questionnaires[0]
      .blocks[0].questions[0];
    expect(q.picture).toMatch(/pictures\/[0-9a-f]{64}\.png$/);
    expect(q.answers[0].picture).toBe(q.picture);

    // Removed, it is gone from the question.
    await panel(page)
      .getByRole('button', { name: 'Remove picture: Block 1 › Question 1', exact: true })
      .click();
    await expect
      .poll(() =>
        panel(page).getByRole('img', { name: 'Picture: Block 1 › Question 1', exact: true }).count(),
      )
      .toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  }, 120_000);
});
