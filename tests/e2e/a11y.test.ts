import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { axeFull, axeLines, launchBrowser, signIn, startApp } from './helpers';
import type { Session, TestServer } from '../server/helpers';
import { createProject, fillQuestionnaire, setStatus } from '../server/projects.helpers';
import { Role, type RoleId } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import { completeContent, insertProject, saveProject } from '../server/content-helpers';
import { insertSurveyProject, surveyContent } from '../server/survey-fixtures';
import { writeContent } from '../../server/repos/content';
import { insertRespondents, sampleContent, sampleRespondents } from '../../server/reports/sample';

const roleName = (id: RoleId) => Object.entries(Role).find(([, v]) => v === id)![0];

// axe-core's whole rule set (experimental rules such as label-in-name and the enhanced contrast of
// WCAG AAA included) over every page of every role at 1 440 and 360 px, and over every dialog and
// menu each role can open from them, plus the editor, the report and the respondent page: no serious
// or critical finding anywhere.

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000 });

describe('accessibility of every page and dialog (axe-core, all rules)', () => {
  let server: TestServer;
  let browser: Browser;
  const emails = new Map<RoleId, string>();
  let researcher: Session;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    const org = await server.createOrganization('Acme Research');
    for (const role of Object.values(Role)) {
      const u = await server.createUser({ role, organizationId: org, fullname: `Anna Role${role}` });
      emails.set(role, u.email);
    }
    researcher = await server.login(emails.get(Role.Researcher)!);
    const admin = await server.login(emails.get(Role.Administrator)!);
    const ready = await createProject(server, researcher, { name: 'Ready for review' });
    await fillQuestionnaire(server, researcher, ready.id);
    await createProject(server, researcher, { name: 'Still empty' });
    // The reports list shows projects whose survey has started.
    const running = await createProject(server, researcher, { name: 'Running survey' });
    await fillQuestionnaire(server, researcher, running.id);
    await setStatus(server, running.id, ProjectStatus.OnRotation);
    await server.call('POST', '/tariffs', { session: admin, body: { name: 'Basic', discount: 5 } });
    const issuer = await server.login(emails.get(Role.Issuer)!);
    const lookups = await Promise.all(
      ['/games/genres', '/games/platforms', '/games/currencies'].map((p) =>
        server.call('GET', p, { session: issuer }),
      ),
    );
    const game = await server.call('POST', '/games', {
      session: issuer,
      body: {
        name: 'Space Farm',
        genreId: lookups[0].body[0].id,
        platformId: lookups[1].body[0].id,
        currencyId: lookups[2].body[0].id,
        url: 'https://example.com/game',
      },
    });
    expect(game.status, JSON.stringify(game.body)).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A page at the given width whose findings are collected, so one run names every defect. */
  async function auditor(width = 1440) {
    const context = await browser.newContext({
      locale: 'en',
      viewport: { width, height: 900 },
      bypassCSP: true,
    });
    const page = await context.newPage();
    const findings: string[] = [];
    const audit = async (where: string) => {
      findings.push(...axeLines(await axeFull(page)).map((l) => `${where} @${width}: ${l}`));
    };
    return { page, findings, audit, close: () => context.close() };
  }

  const dialog = (page: Page) => page.getByRole('dialog');

  /** Waits for finite CSS transitions (a dialog fading in) to end: colours mid-fade are not the real ones. */
  const settled = (page: Page) =>
    poll(() =>
      page.evaluate(
        () =>
          document
            .getAnimations()
            .filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity).length,
      ),
    ).toBe(0);

  /** Opens a dialog, audits it (and again after `then`, e.g. with errors shown), closes it. */
  async function auditDialog(
    page: Page,
    audit: (where: string) => Promise<void>,
    where: string,
    open: () => Promise<unknown>,
    then?: (d: Locator) => Promise<unknown>,
  ) {
    await open();
    await dialog(page).waitFor();
    await settled(page);
    await audit(where);
    if (then) {
      await then(dialog(page));
      await audit(`${where}, after`);
    }
    // The close icon: Escape may first close a list or sub-form inside the dialog.
    const closeIcon = dialog(page).locator('[data-close]');
    if (await closeIcon.count()) await closeIcon.click();
    else await page.keyboard.press('Escape');
    await expect.poll(() => dialog(page).count(), { timeout: 30_000, message: `${where} closes` }).toBe(0);
  }

  async function openPage(page: Page, path: string, ready: () => Locator) {
    await page.goto(`${server.url}${path}`);
    await ready().waitFor();
    await poll(() => page.getByRole('progressbar').count()).toBe(0);
  }

  const submitFirst = (name: string | RegExp) => (d: Locator) =>
    d.getByRole('button', { name, exact: typeof name === 'string' }).click();

  it('public pages: login (with its error), register, invitations, 404', async () => {
    for (const width of [1440, 360]) {
      const { page, findings, audit, close } = await auditor(width);
      await page.goto(`${server.url}/login`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('This field is required').first().waitFor();
      await audit('/login');
      await page.goto(`${server.url}/register`);
      await page.getByRole('button', { name: 'Register' }).click();
      await page.getByText('This field is required').first().waitFor();
      await audit('/register');
      await page.goto(`${server.url}/invitations`);
      await page.getByRole('button', { name: 'Send the link' }).waitFor();
      await audit('/invitations');
      await page.goto(`${server.url}/no-such-page`);
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      await audit('404');
      await close();
      expect(findings.join('\n')).toBe('');
    }
  });

  it('every page of the Administrator at 1 440 and 360 px, with the shell’s menus', async () => {
    const pages: [string, string][] = [
      ['/profile', 'Profile'],
      ['/demo-researchers', 'Demo researchers'],
      ['/researchers', 'Researchers'],
      ['/issuers', 'Issuers'],
      ['/moderators', 'Moderators'],
      ['/games', 'Games'],
      ['/calculator', 'Calculator'],
      ['/tariffs', 'Tariffs'],
      ['/projects', 'Questionnaires'],
      ['/reports', 'Reports'],
      ['/history', 'Logs'],
    ];
    for (const width of [1440, 360]) {
      const { page, findings, audit, close } = await auditor(width);
      await signIn(page, server, emails.get(Role.Administrator)!);
      for (const [path, heading] of pages) {
        await openPage(page, path, () => page.getByRole('heading', { name: heading, level: 1 }));
        await audit(path);
      }
      await page.getByRole('button', { name: 'Settings' }).click();
      await page.getByRole('checkbox', { name: 'Hide side menu completely' }).waitFor();
      await audit('settings menu');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: /user menu/i }).click();
      await page.getByRole('menuitem', { name: 'Logout' }).waitFor();
      await audit('user menu');
      await page.keyboard.press('Escape');
      await page.getByTestId('menu-toggle').click();
      await page.waitForTimeout(300);
      await audit('sidebar toggled');
      await close();
      expect(findings.join('\n')).toBe('');
    }
  }, 180_000);

  it('every dialog of the Administrator', async () => {
    const { page, findings, audit, close } = await auditor();
    await signIn(page, server, emails.get(Role.Administrator)!);

    // The language confirmation of the settings menu.
    await auditDialog(page, audit, 'language confirmation', async () => {
      await page.getByRole('button', { name: 'Settings' }).click();
      await page.getByRole('combobox', { name: 'Language' }).selectOption('ru');
    });

    // People: the same dialogs serve the four pages.
    await openPage(page, '/moderators', () => page.getByRole('heading', { name: 'Moderators', level: 1 }));
    const moderator = emails.get(Role.Moderator)!;
    await auditDialog(
      page,
      audit,
      'invite',
      () => page.getByRole('button', { name: 'Invite' }).click(),
      async (d) => {
        await d.getByRole('button', { name: 'Invite' }).click();
        await d.getByText('This field is required').first().waitFor();
        await d.getByRole('combobox', { name: 'Organization' }).fill('Axe Org');
        await d.getByRole('option', { name: 'Create organization “Axe Org”' }).click();
        await d.getByLabel('Organization name').waitFor();
      },
    );
    await auditDialog(page, audit, 'edit user', () =>
      page.getByRole('button', { name: `Edit: ${moderator}` }).click(),
    );
    await auditDialog(
      page,
      audit,
      'set password',
      () => page.getByRole('button', { name: `Set a new password: ${moderator}` }).click(),
      async (d) => {
        await d
          .getByRole('button', { name: /save|set/i })
          .first()
          .click();
        await d.getByText('This field is required').first().waitFor();
      },
    );
    await auditDialog(page, audit, 'delete user', () =>
      page.getByRole('button', { name: `Delete: ${moderator}` }).click(),
    );
    await auditDialog(page, audit, 'status change', () =>
      page.getByRole('combobox', { name: `Status of ${moderator}` }).selectOption({ label: 'Deactivated' }),
    );

    // Games.
    await openPage(page, '/games', () => page.getByRole('heading', { name: 'Games', level: 1 }));
    await auditDialog(
      page,
      audit,
      'new game',
      () => page.getByRole('button', { name: 'Add game' }).click(),
      submitFirst(/^(add|create|save)/i),
    );
    await auditDialog(page, audit, 'edit game', () =>
      page.getByRole('button', { name: 'Edit game “Space Farm”' }).click(),
    );
    await auditDialog(page, audit, 'game connection', () =>
      page.getByRole('button', { name: 'Connection of game “Space Farm”' }).click(),
    );
    await auditDialog(page, audit, 'delete game', () =>
      page.getByRole('button', { name: 'Delete game “Space Farm”' }).click(),
    );

    // Pricing.
    await openPage(page, '/calculator', () => page.getByRole('heading', { name: 'Calculator', level: 1 }));
    await page.locator('input[id^="calc-"]').first().fill('abc');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('This field must be a number').first().waitFor();
    await audit('calculator with an error');
    await openPage(page, '/tariffs', () => page.getByRole('heading', { name: 'Tariffs', level: 1 }));
    await auditDialog(
      page,
      audit,
      'new tariff',
      () => page.getByRole('button', { name: 'Add tariff' }).click(),
      submitFirst(/^(add|create|save)/i),
    );
    await auditDialog(page, audit, 'edit tariff', () =>
      page.getByRole('button', { name: 'Edit tariff “Basic”' }).click(),
    );
    await auditDialog(page, audit, 'delete tariff', () =>
      page.getByRole('button', { name: 'Delete tariff “Basic”' }).click(),
    );

    // Projects: creation and every row action.
    await openPage(page, '/projects', () => page.getByRole('heading', { name: 'Questionnaires', level: 1 }));
    await page.getByRole('row', { name: /Ready for review/ }).waitFor();
    await auditDialog(
      page,
      audit,
      'new project',
      () => page.getByRole('button', { name: 'Create project' }).click(),
      submitFirst('Create'),
    );
    const more = page.getByRole('button', { name: 'More actions for project “Ready for review”' });
    await more.click();
    await page.getByRole('menuitem', { name: 'Details' }).waitFor();
    await audit('project actions menu');
    await page.keyboard.press('Escape');
    for (const action of [
      'Details',
      'Rename',
      'Settings',
      'Send for moderation',
      'Get survey link',
      'Clone',
      'Delete',
    ]) {
      await auditDialog(page, audit, `project: ${action}`, async () => {
        await more.click();
        await page.getByRole('menuitem', { name: action }).click();
      });
    }
    await openPage(page, '/reports', () => page.getByRole('heading', { name: 'Reports', level: 1 }));
    await auditDialog(page, audit, 'delete report', () =>
      page.getByRole('button', { name: 'Delete project “Running survey”' }).click(),
    );
    await close();
    expect(findings.join('\n')).toBe('');
  }, 180_000);

  const plan: [RoleId, [string, string][]][] = [
    [
      Role.Moderator,
      [
        ['/projects', 'Questionnaires'],
        ['/profile', 'Profile'],
      ],
    ],
    [
      Role.ModeratorVK,
      [
        ['/projects', 'Questionnaires'],
        ['/profile', 'Profile'],
      ],
    ],
    [
      Role.Researcher,
      [
        ['/projects', 'Questionnaires'],
        ['/reports', 'Reports'],
        ['/profile', 'Profile'],
      ],
    ],
    [
      Role.DemoResearcher,
      [
        ['/projects', 'Questionnaires'],
        ['/reports', 'Reports'],
        ['/profile', 'Profile'],
      ],
    ],
    [
      Role.Issuer,
      [
        ['/games', 'Games'],
        ['/profile', 'Profile'],
      ],
    ],
  ];
  for (const [role, pages] of plan) {
    it(`every page and dialog of the ${roleName(role)}`, async () => {
      for (const width of [1440, 360]) {
        const { page, findings, audit, close } = await auditor(width);
        await signIn(page, server, emails.get(role)!);
        if (role === Role.DemoResearcher) {
          // Their guide opens by itself on the first sign-in.
          await dialog(page).waitFor();
          await settled(page);
          await audit(`role ${role}: first-login guide`);
          await page.keyboard.press('Escape');
          await poll(() => dialog(page).count()).toBe(0);
          await auditDialog(page, audit, `role ${role}: help`, () =>
            page.getByRole('button', { name: 'Help' }).click(),
          );
        }
        for (const [path, heading] of pages) {
          await openPage(page, path, () => page.getByRole('heading', { name: heading, level: 1 }));
          await audit(`role ${role} ${path}`);
        }
        if (width === 1440 && role === Role.Researcher) {
          await openPage(page, '/projects', () =>
            page.getByRole('heading', { name: 'Questionnaires', level: 1 }),
          );
          await auditDialog(page, audit, 'researcher: new project', () =>
            page.getByRole('button', { name: 'Create project' }).click(),
          );
        }
        if (width === 1440 && role === Role.Issuer) {
          await openPage(page, '/games', () => page.getByRole('heading', { name: 'Games', level: 1 }));
          await auditDialog(page, audit, 'issuer: new game', () =>
            page.getByRole('button', { name: 'Add game' }).click(),
          );
          await auditDialog(page, audit, 'issuer: connection', () =>
            page.getByRole('button', { name: 'Connection of game “Space Farm”' }).click(),
          );
        }
        await close();
        expect(findings.join('\n')).toBe('');
      }
    }, 120_000);
  }

  it('the report page and the respondent page, at 1 440 and 360 px', async () => {
    const org = await server.createOrganization('Report Org');
    const owner = await server.as(Role.Researcher, { organizationId: org });
    const content = sampleContent();
    const pid = await insertProject(server, org, { status: ProjectStatus.OnRotation, name: 'Player survey' });
    await writeContent(server.app.db, pid, 0, content, owner.user.id);
    await insertRespondents(
      server.app.db,
      pid,
      content.questionnaires[0].id,
      sampleRespondents(7, 40, content),
    );
    const { link } = await insertSurveyProject(server, surveyContent());
    for (const width of [1440, 360]) {
      const { page, findings, audit, close } = await auditor(width);
      await page.goto(`${server.url}/s/${link}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await audit('/s/:token');
      await signIn(page, server, owner.user.email);
      await page.goto(`${server.url}/report?pid=${pid}`);
      await page.locator('#report').waitFor();
      await page.locator('[data-counter]').first().waitFor();
      await settled(page);
      await audit('/report');
      await close();
      expect(findings.join('\n')).toBe('');
    }
  }, 120_000);

  it('the project editor, at 1 440 and 360 px', async () => {
    const org = await server.createOrganization('Editor Org');
    const owner = await server.as(Role.Researcher, { organizationId: org });
    const pid = await insertProject(server, org, { name: 'Edited' });
    expect((await saveProject(server, owner, pid, completeContent(), 0)).status).toBe(200);
    for (const width of [1440, 360]) {
      const { page, findings, audit, close } = await auditor(width);
      await signIn(page, server, owner.user.email);
      await page.goto(`${server.url}/project?pid=${pid}`);
      await page.getByRole('button', { name: 'Import from list' }).waitFor();
      await settled(page);
      await audit('/project');
      await page.getByRole('button', { name: 'Import from list' }).click();
      await page.getByLabel('Text with the list of questions').waitFor();
      await audit('/project: import from list');
      await close();
      expect(findings.join('\n')).toBe('');
    }
  }, 120_000);
});
