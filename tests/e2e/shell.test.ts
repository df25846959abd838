import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  launchBrowser,
  newContext,
  signIn,
  startApp,
  watchErrors,
  axeFull,
  axeLines,
  newAuditPage,
} from './helpers';
import type { TestServer } from '../server/helpers';
import { Role, type RoleName } from '../../src/domain/roles';
import enGuides from '../../src/i18n/en/guides';

// The demo researcher guide's slides are described by their captions (their alt text).
const guideCaptions = enGuides.captions.lkDemoResearcher;

// The app shell in Chromium (issue 3): the sidebar of every role, collapsing and hiding it, the
// language switch with its confirmation, toasts, the 404 page, guides, the user menu and profile.
// The offline and installability checks live in shell-pwa.test.ts.

const ANALYTICS = 'https://analytics.example.com/board';
const STATISTICS = 'https://stats.example.com/board';

// Spec section 2's table, by the English names a user reads in the sidebar.
const A: RoleName = 'Administrator';
const SPEC_MENU: Record<string, RoleName[]> = {
  'Demo researchers': [A],
  Researchers: [A],
  Issuers: [A],
  Moderators: [A],
  Games: [A, 'Issuer'],
  Calculator: [A],
  Tariffs: [A],
  'Analytics (opens in a new tab)': [A],
  Questionnaires: [A, 'ModeratorVK', 'Moderator', 'Researcher', 'DemoResearcher'],
  Reports: [A, 'Researcher', 'DemoResearcher'],
  Logs: [A],
  'Statistics (opens in a new tab)': [A, 'ModeratorVK'],
};

describe('app shell in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  const emails = new Map<RoleName, string>();

  beforeAll(async () => {
    server = await startApp((c) => {
      c.analyticsUrl = ANALYTICS;
      c.statisticsUrl = STATISTICS;
    });
    browser = await launchBrowser();
    for (const [name, id] of Object.entries(Role) as [RoleName, number][]) {
      const org = await server.createOrganization();
      emails.set(
        name,
        (await server.createUser({ role: id as never, organizationId: org, fullname: `${name} Person` }))
          .email,
      );
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function openAs(role: RoleName, locale: 'en' | 'ru' = 'en'): Promise<Page> {
    const page = await (await newContext(browser, locale)).newPage();
    await signIn(page, server, emails.get(role)!);
    // Hidden ones too: a demo researcher's guide may already cover the page (the menu behind it is inert).
    await page
      .getByRole('navigation', {
        name: locale === 'en' ? 'Main navigation' : 'Основное меню',
        includeHidden: true,
      })
      .waitFor();
    return page;
  }

  const nav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });
  const sidebarWidth = (page: Page) =>
    page.getByTestId('sidebar').evaluate((el) => el.getBoundingClientRect().width);

  for (const role of Object.keys(Role) as RoleName[]) {
    it(`shows the ${role} the sidebar of the spec's table, with working links`, async () => {
      const page = await openAs(role);
      const errors = watchErrors(page);
      if (role === 'DemoResearcher') {
        // Their first sign-in in this browser opens their guide over the page.
        await page
          .getByRole('dialog', { name: 'Welcome to your account' })
          .getByRole('button', { name: 'Do by myself' })
          .click();
        await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      }
      const names = await nav(page)
        .getByRole('link')
        .evaluateAll((links) => links.map((l) => l.getAttribute('aria-label') ?? l.textContent!.trim()));
      const expected = Object.entries(SPEC_MENU)
        .filter(([, roles]) => roles.includes(role))
        .map(([name]) => name);
      expect(names).toEqual(expected);

      // Groups without a visible child are not shown at all.
      const groups = await nav(page)
        .locator('[data-menu-group]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-menu-group')));
      const expectedGroups = [
        expected.includes('Researchers') ? 'access' : null,
        expected.includes('Calculator') ? 'pricing' : null,
        expected.includes('Questionnaires') ? 'projects' : null,
      ].filter(Boolean);
      expect(groups).toEqual(expectedGroups);

      if (expected.includes('Questionnaires')) {
        await nav(page).getByRole('link', { name: 'Questionnaires' }).click();
        await page.waitForURL((u) => u.pathname === '/projects');
        expect(
          await nav(page).getByRole('link', { name: 'Questionnaires' }).getAttribute('aria-current'),
        ).toBe('page');
      }
      if (role === 'Administrator') {
        const analytics = nav(page).getByRole('link', { name: 'Analytics (opens in a new tab)' });
        expect(await analytics.getAttribute('href')).toBe(ANALYTICS);
        expect(await analytics.getAttribute('target')).toBe('_blank');
        expect(
          await nav(page).getByRole('link', { name: 'Statistics (opens in a new tab)' }).getAttribute('href'),
        ).toBe(STATISTICS);
      }
      // The help button is for demo researchers only.
      expect(await page.getByRole('button', { name: 'Help for this page' }).count()).toBe(
        role === 'DemoResearcher' ? 1 : 0,
      );
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }

  it('hides Analytics and Statistics when the server has no URL for them', async () => {
    const bare = await startApp();
    try {
      const user = await bare.createUser({
        role: Role.Administrator,
        organizationId: await bare.createOrganization(),
      });
      const page = await (await newContext(browser)).newPage();
      await signIn(page, bare, user.email);
      await nav(page).getByRole('link', { name: 'Logs' }).waitFor();
      expect(
        await nav(page)
          .getByRole('link', { name: /Analytics|Statistics/ })
          .count(),
      ).toBe(0);
      await page.context().close();
    } finally {
      await bare.close();
    }
  });

  it('starts as a 75 px rail with tooltips, expands to 300 px with the version, and remembers it', async () => {
    const page = await openAs('Administrator');
    expect(await sidebarWidth(page)).toBe(75);
    expect(await page.getByTestId('app-version').count()).toBe(0);

    await nav(page).getByRole('link', { name: 'Tariffs' }).hover();
    await expect.poll(() => page.getByRole('tooltip').textContent()).toBe('Tariffs');

    await page.getByRole('button', { name: 'Expand menu' }).click();
    await expect.poll(() => sidebarWidth(page)).toBe(300);
    expect(await page.getByTestId('app-version').textContent()).toBe('Version 0.3.10');
    expect(await nav(page).getByText('Access control').isVisible()).toBe(true);
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('app-settings')))!)).toMatchObject({
      shrinkSideMenu: false,
    });

    await page.reload();
    await nav(page).waitFor();
    expect(await sidebarWidth(page)).toBe(300);

    await page.getByRole('button', { name: 'Collapse menu' }).click();
    await expect.poll(() => sidebarWidth(page)).toBe(75);
    expect(await page.getByTestId('app-version').count()).toBe(0);
    await page.context().close();
  });

  it('on a 360 px phone lays the expanded menu over the page, and closes it from the backdrop or a link', async () => {
    const page = await openAs('Administrator');
    await page.setViewportSize({ width: 360, height: 740 });
    const mainWidth = () => page.locator('main').evaluate((el) => el.getBoundingClientRect().width);
    expect(await sidebarWidth(page)).toBe(75);

    await page.getByRole('button', { name: 'Expand menu' }).click();
    await expect.poll(() => sidebarWidth(page)).toBe(300);
    // Over the page, not beside it: the page keeps the whole width (it had 60 px left before).
    expect(await mainWidth()).toBe(360);
    // The backdrop beside the menu, named as the header's toggle it stands in for (which it covers).
    const backdrop = page.getByTestId('menu-backdrop');
    expect(await backdrop.getAttribute('aria-label')).toBe('Collapse menu');
    await backdrop.click({ position: { x: 340, y: 400 } });
    await expect.poll(() => sidebarWidth(page)).toBe(75);
    expect(await mainWidth()).toBe(360 - 75);

    await page.getByRole('button', { name: 'Expand menu' }).click();
    await expect.poll(() => sidebarWidth(page)).toBe(300);
    await nav(page).getByRole('link', { name: 'Tariffs' }).click();
    await page.waitForURL(/\/tariffs$/);
    await expect.poll(() => sidebarWidth(page)).toBe(75);
    await page.context().close();
  });

  it('hides the side menu completely from the settings menu, and brings it back', async () => {
    const page = await openAs('Researcher');
    await page.getByRole('button', { name: 'Settings' }).click();
    const hide = page.getByRole('checkbox', { name: 'Hide side menu completely' });
    await hide.check();
    await expect.poll(() => page.getByTestId('sidebar').count()).toBe(0);
    await page.reload();
    await page.getByRole('button', { name: 'Show menu' }).waitFor();
    expect(await page.getByTestId('sidebar').count()).toBe(0);

    await page.getByRole('button', { name: 'Show menu' }).click();
    await nav(page).waitFor();
    await page.getByRole('button', { name: 'Settings' }).click();
    expect(await page.getByRole('checkbox', { name: 'Hide side menu completely' }).isChecked()).toBe(false);
    await page.context().close();
  });

  it('asks before switching the language; Cancel keeps Russian, Agree stores en, reloads and shows English', async () => {
    const page = await openAs('Administrator', 'ru');
    const ruNav = page.getByRole('navigation', { name: 'Основное меню' });
    await ruNav.getByRole('link', { name: 'Анкеты' }).waitFor();

    await page.getByRole('button', { name: 'Настройки' }).click();
    const language = page.getByRole('combobox', { name: 'Язык' });
    await language.selectOption('en');
    const dialog = page.getByRole('dialog', { name: 'Сменить язык?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Отмена' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await ruNav.getByRole('link', { name: 'Анкеты' }).count()).toBe(1);
    expect(
      await page.evaluate(() => JSON.parse(localStorage.getItem('app-settings') ?? '{}').locale),
    ).toBeUndefined();

    await page.getByRole('button', { name: 'Настройки' }).click();
    await page.getByRole('combobox', { name: 'Язык' }).selectOption('en');
    // Waited for from before the click: the reload's load event may come before click() returns.
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('dialog', { name: 'Сменить язык?' }).getByRole('button', { name: 'Сменить' }).click(),
    ]);
    await nav(page).getByRole('link', { name: 'Questionnaires' }).waitFor();
    expect(await page.getByRole('button', { name: 'Settings' }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('app-settings')!).locale)).toBe('en');
    await page.context().close();
  });

  it('uses the browser language when nothing is stored', async () => {
    const page = await (await newContext(browser, 'ru')).newPage();
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Войти' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ru');
    await page.context().close();
  });

  it('falls back to Russian for a browser language other than en or ru', async () => {
    const page = await (await browser.newContext({ locale: 'de-DE' })).newPage();
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Войти' }).waitFor();
    await page.context().close();
  });

  it('shows the user menu with full name and role, Profile and Logout', async () => {
    const page = await openAs('ModeratorVK');
    await nav(page).getByRole('link', { name: 'Questionnaires' }).click();
    await page.waitForURL((u) => u.pathname === '/projects');
    await page.getByRole('button', { name: 'User menu' }).click();
    const identity = page.getByTestId('user-menu-identity');
    expect((await identity.innerText()).split(/\n+/)).toEqual(['ModeratorVK Person', 'Moderator VK']);
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page.waitForURL((u) => u.pathname === '/profile');
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    expect(await page.evaluate(() => localStorage.getItem('auth'))).toBeNull();
    await page.context().close();
  });

  it('changes the password from the profile: rules, confirmation, server answer, a toast that closes on click', async () => {
    const email = (
      await server.createUser({ role: Role.Researcher, organizationId: await server.createOrganization() })
    ).email;
    const page = await (await newContext(browser)).newPage();
    await signIn(page, server, email);
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    const password = page.getByLabel('New password');
    const repeat = page.getByLabel('Repeat the password');
    const submit = page.getByRole('button', { name: 'Change password' });

    await password.fill('abcdefgh');
    await repeat.fill('abcdefgx');
    await submit.click();
    await page.getByText('Must contain a number').waitFor();
    expect(await page.getByText('Passwords must match').count()).toBe(1);
    await password.fill('ABCDEFG1');
    await page.getByText('Must contain a lowercase letter').waitFor();
    await password.fill('abcdefg1');
    await repeat.fill('abcdefg1');
    await submit.click();

    const toast = page.locator('[data-toast-kind="success"]', { hasText: 'Password changed' });
    await toast.waitFor();
    expect(await password.inputValue()).toBe('');
    await toast.click();
    await expect.poll(() => toast.count()).toBe(0);

    // The new password is the one the server now accepts.
    await expect(server.login(email, 'abcdefg1')).resolves.toBeTruthy();
    await page.context().close();
  });

  it('dismisses a toast dragged sideways past 60 % of its width, and keeps one dragged less', async () => {
    const email = (
      await server.createUser({ role: Role.Researcher, organizationId: await server.createOrganization() })
    ).email;
    const page = await (await newContext(browser)).newPage();
    await signIn(page, server, email);
    const change = async (pw: string) => {
      await page.getByLabel('New password').fill(pw);
      await page.getByLabel('Repeat the password').fill(pw);
      await page.getByRole('button', { name: 'Change password' }).click();
    };
    const drag = async (ratio: number) => {
      const box = (await page.locator('[data-toast-kind="success"]').first().boundingBox())!;
      const y = box.y + box.height / 2;
      await page.mouse.move(box.x + box.width / 2, y);
      await page.mouse.down();
      for (let i = 1; i <= 10; i++)
        await page.mouse.move(box.x + box.width / 2 + (box.width * ratio * i) / 10, y);
      await page.mouse.up();
      // Move away so hovering no longer pauses the toast's timer.
      await page.mouse.move(5, 400);
    };
    await change('abcdefg2');
    const toast = page.locator('[data-toast-kind="success"]');
    await toast.waitFor();
    // Top-right by default, just below the header (issue 17: toasts never cover the header's menus).
    const box = (await toast.boundingBox())!;
    const header = (await page.locator('header').first().boundingBox())!;
    expect(box.x + box.width).toBeGreaterThan(1200);
    expect(box.y).toBeGreaterThanOrEqual(header.y + header.height);
    expect(box.y).toBeLessThan(header.y + header.height + 40);

    await drag(0.4);
    await page.waitForTimeout(300);
    expect(await toast.count()).toBe(1);
    await drag(0.7);
    await expect.poll(() => toast.count()).toBe(0);
    await page.context().close();
  });

  it('shows the 404 page for an unknown path, signed in or not', async () => {
    const page = await (await newContext(browser)).newPage();
    await page.goto(`${server.url}/no-such-page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/no-such-page');
    await signIn(page, server, emails.get('Researcher')!);
    await page.goto(`${server.url}/no-such-page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.getByRole('link', { name: 'Go home' }).click();
    await page.waitForURL((u) => u.pathname === '/profile');
    await page.context().close();
  });

  it("opens the demo researcher's guide by itself on the first sign-in only, and again from Help", async () => {
    const email = (
      await server.createUser({
        role: Role.DemoResearcher,
        organizationId: await server.createOrganization(),
      })
    ).email;
    const context = await newContext(browser);
    const page = await context.newPage();
    await signIn(page, server, email);
    const guide = page.getByRole('dialog', { name: 'Welcome to your account' });
    await guide.waitFor();
    expect(await guide.getByRole('img').getAttribute('alt')).toBe(guideCaptions.s1);
    const remembered = await page.evaluate(() => JSON.parse(localStorage.getItem('app-helpers')!));
    expect(Object.keys(remembered)).toEqual(['lk/demo-researcher']);

    await guide.getByRole('button', { name: 'Do by myself' }).click();
    await expect.poll(() => guide.count()).toBe(0);
    await page.reload();
    await page.getByRole('button', { name: 'Help for this page' }).waitFor();
    await page.waitForTimeout(500);
    expect(await guide.count()).toBe(0);

    await page.getByRole('button', { name: 'Help for this page' }).click();
    await guide.waitFor();
    // Focus stays inside the dialog however far one tabs.
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    }
    for (let n = 2; n <= 6; n++) {
      await guide.getByRole('button', { name: 'Next' }).click();
      await expect
        .poll(() => guide.getByRole('img').getAttribute('alt'))
        .toBe(guideCaptions[`s${n}` as keyof typeof guideCaptions]);
    }
    expect(await guide.getByRole('button', { name: 'Next' }).count()).toBe(0);
    const slide = await guide.getByRole('img').getAttribute('src');
    expect((await page.request.get(`${server.url}${slide}`)).status()).toBe(200);
    await guide.getByRole('button', { name: 'End' }).click();
    await expect.poll(() => guide.count()).toBe(0);
    // Focus goes back to the button that opened the guide.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Help for this page');
    await context.close();
  });
  it('pauses a toast while the window has no focus, and closes it 5 s after focus returns', async () => {
    const email = (
      await server.createUser({ role: Role.Researcher, organizationId: await server.createOrganization() })
    ).email;
    const page = await (await newContext(browser)).newPage();
    await signIn(page, server, email);
    await page.getByLabel('New password').fill('abcdefg3');
    await page.getByLabel('Repeat the password').fill('abcdefg3');
    await page.mouse.move(5, 400);
    await page.getByRole('button', { name: 'Change password' }).click();
    const toast = page.locator('[data-toast-kind="success"]');
    await toast.waitFor();
    await page.evaluate(() => window.dispatchEvent(new Event('blur')));
    await page.waitForTimeout(6000);
    expect(await toast.count()).toBe(1);
    const back = Date.now();
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await toast.waitFor({ state: 'detached', timeout: 30_000 });
    // It had used part of its 5 s before the pause; it never closes early after focus returns, and
    // closes within the rest of its time (the bound leaves a slow machine's timers some room).
    const waited = Date.now() - back;
    expect(waited).toBeGreaterThan(3000);
    expect(waited).toBeLessThan(10_000);
    await page.context().close();
  });

  it('has no serious or critical axe findings (every rule) in the shell: rail, full sidebar, settings, user menu, a dialog', async () => {
    const page = await newAuditPage(browser);
    const audit = async () => axeLines(await axeFull(page));
    await signIn(page, server, emails.get('Administrator')!);
    await nav(page).waitFor();
    expect(await audit()).toEqual([]);
    await page.getByRole('button', { name: 'Expand menu' }).click();
    await page.getByTestId('app-version').waitFor();
    expect(await audit()).toEqual([]);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('checkbox', { name: 'Hide side menu completely' }).waitFor();
    expect(await audit()).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).waitFor();
    expect(await audit()).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('combobox', { name: 'Language' }).selectOption('ru');
    await page.getByRole('dialog', { name: 'Change the language?' }).waitFor();
    expect(await audit()).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await page.goto(`${server.url}/no-such-page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await audit()).toEqual([]);
    await page.context().close();
  });
});
