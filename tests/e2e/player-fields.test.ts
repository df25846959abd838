import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newAuditPage, signIn, startApp, watchErrors } from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { insertProject, saveProject } from '../server/content-helpers';
import { Role } from '../../src/domain/roles';
import { newAnswer, newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';
import { expectSaveState, fill, panel, selectQuestion, seriousViolations } from './panels-helpers';

// Issue 24, part 2 in the editor: the question panel warns when a question written to the player's
// record cannot map onto a mapped field (gender, age, city, education), and stops warning when the
// fields are changed to ones it can fill.

describe('the question panel’s warning for fields of the player’s record', () => {
  let server: TestServer;
  let browser: Browser;
  let admin: Session;
  let org: number;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    org = await server.createOrganization('Record Org');
    admin = await server.as(Role.Administrator, { organizationId: org });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('warns about an open question into gender and a choice answer that is no gender', async () => {
    const pid = await insertProject(server, org, { name: 'Record' });
    const content = {
      questionnaires: [
        newQuestionnaire({
          blocks: [
            newBlock({
              questions: [
                newQuestion({
                  text: 'Your gender?',
                  category: 'open',
                  writeToDb: true,
                  dbFields: ['gender'],
                }),
                newQuestion({
                  text: 'Gender',
                  answers: [
                    newAnswer({ text: 'Male' }),
                    newAnswer({ text: 'Female' }),
                    newAnswer({ text: 'Prefer not to say' }),
                  ],
                  writeToDb: true,
                  dbFields: ['gender'],
                }),
              ],
            }),
          ],
        }),
      ],
      portraits: [],
    };
    expect((await saveProject(server, admin, pid, content, 0)).status).toBe(200);
    const page = await newAuditPage(browser);
    const errors = watchErrors(page);
    await signIn(page, server, admin.user.email);
    await page.goto(`${server.url}/project?pid=${pid}`);
    await expectSaveState(page, 'All changes saved');

    await selectQuestion(page, 1);
    const warning = panel(page).getByTestId('db-mapping-warnings');
    await expect
      .poll(() => warning.textContent())
      .toContain(
        'A typed answer is written to “gender” only when the respondent types exactly one of its values.',
      );
    expect(await seriousViolations(page)).toEqual([]);
    // A free-named field takes any answer: nothing to warn about.
    await fill(page, 'Fields to write (comma separated)', 'nickname');
    await expect.poll(() => warning.count()).toBe(0);

    await selectQuestion(page, 2);
    await expect
      .poll(() => warning.textContent())
      .toContain('These answers are not values of “gender” and will not be written: “Prefer not to say”');
    await warning.scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/players-warning.png' });
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
