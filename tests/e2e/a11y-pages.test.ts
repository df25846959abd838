import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { axeFull, axeLines, launchBrowser, signIn, startApp } from './helpers';
import type { TestServer } from '../server/helpers';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import {
  newAnswer,
  newBlock,
  newPortrait,
  newQuestion,
  newQuestionnaire,
} from '../../src/domain/content/factory';
import type { ProjectContent } from '../../src/domain/content/model';
import { insertSurveyProject, surveyContent } from '../server/survey-fixtures';

// The states of pages that a11y.test.ts does not reach: the sign-in page with the server's refusal,
// the page a role may not see, the log page filtered to nothing, the organization list of the invite
// dialog (organizations have no page of their own), and the respondent page when the survey is not
// open (not started, paused, finished, an unknown link), after the last answer and when the
// respondent's portrait is full. axe-core's whole rule set at 1 440 and 360 px, no serious or
// critical finding. SHOTS=1 also saves a picture of each state under /tmp and prints the milder
// findings.

const WIDTHS = [1440, 360];

/**
 * A questionnaire of one question, so the thank-you page is one answer away; its portraits take one
 * woman and five men, so a second woman meets the "enough answers" page.
 */
function oneQuestion(): ProjectContent {
  return {
    questionnaires: [
      newQuestionnaire({
        id: 'Q1',
        blocks: [
          newBlock({
            id: 'B1',
            questions: [
              newQuestion({
                id: 'only',
                text: 'Only question',
                answers: [newAnswer({ id: 'a1', text: 'First' }), newAnswer({ id: 'a2', text: 'Second' })],
              }),
            ],
          }),
        ],
      }),
    ],
    portraits: [
      newPortrait({
        id: 'women',
        respondents: 1,
        params: [{ field: 'gender', values: ['female'], min: null, max: null }],
      }),
      newPortrait({
        id: 'men',
        respondents: 5,
        params: [{ field: 'gender', values: ['male'], min: null, max: null }],
      }),
    ],
  };
}

describe('accessibility of the pages other audits do not reach (axe-core, all rules)', () => {
  let server: TestServer;
  let browser: Browser;
  const emails = new Map<number, string>();

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    const org = await server.createOrganization('Audit Org');
    for (const role of [Role.Administrator, Role.Researcher, Role.Issuer, Role.Moderator]) {
      const u = await server.createUser({ role, organizationId: org, fullname: `Anna Role${role}` });
      emails.set(role, u.email);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Runs `visit` on a fresh page at each width; every audit's findings are collected, then asserted empty. */
  async function atEveryWidth(visit: (page: Page, audit: (where: string) => Promise<void>) => Promise<void>) {
    const findings: string[] = [];
    for (const width of WIDTHS) {
      const context = await browser.newContext({
        locale: 'en',
        viewport: { width, height: 900 },
        bypassCSP: true,
      });
      const page = await context.newPage();
      await visit(page, async (where) => {
        findings.push(...axeLines(await axeFull(page)).map((l) => `${where} @${width}: ${l}`));
        if (process.env.SHOTS) {
          // To look at: a picture of each state, and the milder findings that do not fail the test.
          const file = `/tmp/a11y-${where.replace(/[^a-z0-9]+/gi, '-')}-${width}.png`;
          await page.screenshot({ path: file, fullPage: true });
          console.log(where, width, axeLines(await axeFull(page, ['minor', 'moderate'])));
        }
      });
      await context.close();
    }
    expect(findings.join('\n')).toBe('');
  }

  it('the sign-in page with a refused password', async () => {
    await atEveryWidth(async (page, audit) => {
      await page.goto(`${server.url}/login`);
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await audit('/login');
      await page.getByLabel(/email/i).fill(emails.get(Role.Researcher)!);
      await page.getByLabel(/password/i).fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').first().waitFor();
      await audit('/login, refused');
    });
  });

  it('the not-available page of a role opening a page it may not see', async () => {
    await atEveryWidth(async (page, audit) => {
      await signIn(page, server, emails.get(Role.Issuer)!);
      await page.goto(`${server.url}/projects`);
      await page
        .getByRole('heading', { name: 'This page is not available for your role.', level: 1 })
        .waitFor();
      await page.getByRole('link', { name: 'Go to your profile' }).waitFor();
      await audit('issuer on /projects');
      await page.goto(`${server.url}/moderators`);
      await page
        .getByRole('heading', { name: 'This page is not available for your role.', level: 1 })
        .waitFor();
      await audit('issuer on /moderators');
    });
  });

  it('the log page with entries and filtered to nothing; the invite dialog’s organization list', async () => {
    await atEveryWidth(async (page, audit) => {
      await signIn(page, server, emails.get(Role.Administrator)!);
      await page.goto(`${server.url}/history`);
      await page.getByRole('heading', { name: 'Logs', level: 1 }).waitFor();
      await page.locator('tbody tr').first().waitFor();
      await audit('/history');
      await page.getByLabel('User email').fill('nobody-at-all@example.org');
      await page.getByText('No entries').waitFor();
      await audit('/history, nothing found');

      await page.goto(`${server.url}/moderators`);
      await page.getByRole('heading', { name: 'Moderators', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Invite' }).click();
      const org = page.getByRole('dialog').getByRole('combobox', { name: 'Organization' });
      await org.fill('Aud');
      await page.getByRole('option', { name: 'Audit Org' }).waitFor();
      await audit('invite: organization list');
    });
  });

  it('the respondent page when the survey is not open, for an unknown link, after the last answer, and with a full portrait', async () => {
    const closed: [string, number, string][] = [
      ['not started', ProjectStatus.Created, 'The survey has not started yet. Please come back later.'],
      ['paused', ProjectStatus.Paused, 'The survey is paused. Please come back later.'],
      ['finished', ProjectStatus.SurveyFinished, 'The survey has finished. Thank you for your interest!'],
    ];
    const links = await Promise.all(
      closed.map(([, status]) => insertSurveyProject(server, surveyContent(), { status })),
    );
    await atEveryWidth(async (page, audit) => {
      for (const [i, [name, , text]] of closed.entries()) {
        await page.goto(`${server.url}/s/${links[i].link}`);
        await page.getByRole('heading', { name: 'The survey is not available', level: 1 }).waitFor();
        await page.getByText(text).waitFor();
        await audit(`/s/:token ${name}`);
      }
      await page.goto(`${server.url}/s/NoSuchLinkToken123`);
      await page.getByRole('heading', { name: 'Survey not found' }).waitFor();
      await audit('/s/:token unknown');

      const { link } = await insertSurveyProject(server, oneQuestion());
      const startAsWoman = async () => {
        await page.goto(`${server.url}/s/${link}`);
        await page.getByRole('heading', { name: 'About you', level: 1 }).waitFor();
        await page.getByLabel('Gender').selectOption('female');
        await page.getByRole('button', { name: 'Start' }).click();
      };
      await startAsWoman();
      await page.getByRole('heading', { name: 'Only question', level: 1 }).waitFor();
      await page.getByLabel('Second').check();
      await page.getByRole('button', { name: /next|finish|submit/i }).click();
      await page.getByRole('heading', { name: 'Thank you!', level: 1 }).waitFor();
      await audit('/s/:token thank you');
      // Another woman (this browser forgets the first): her portrait is full.
      await page.evaluate(() => localStorage.clear());
      await startAsWoman();
      await page.getByRole('heading', { name: 'The survey is complete', level: 1 }).waitFor();
      await audit('/s/:token enough answers');
    });
  });
});
