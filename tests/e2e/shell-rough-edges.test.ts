import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signIn, startApp, watchErrors } from './helpers';
import type { TestServer } from '../server/helpers';
import { createProject, fillQuestionnaire } from '../server/projects.helpers';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';

// The back-office's rough edges of issue 17, each kept fixed: list tables whose row actions stay on
// screen at 1 440 px (rail and full sidebar) and whose pages never overflow the window at 360 px;
// sidebar links outside a group that do not look nested in the group above; the log with status
// names and a date filter; toasts that never cover the header or its menus; the calculator page
// that ends where its content ends; a number over its maximum that names the maximum.

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000 });
const DAY = 24 * 60 * 60 * 1000;

describe('rough edges of the back-office', () => {
  let server: TestServer;
  let browser: Browser;
  let adminEmail: string;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    const org = await server.createOrganization('Acme Research International Holdings');
    adminEmail = (
      await server.createUser({
        role: Role.Administrator,
        organizationId: org,
        fullname: 'Alexandra Konstantinopolskaya',
      })
    ).email;
    // Long addresses and names: what used to push the actions off-screen.
    for (const role of [Role.Moderator, Role.ModeratorVK, Role.Researcher, Role.Issuer, Role.DemoResearcher])
      for (let i = 0; i < 3; i++)
        await server.createUser({
          role,
          organizationId: org,
          fullname: `Konstantin Konstantinopolsky the ${i}th`,
          email: `someone.with.a.very.long.mailbox.${role}.${i}@subdivision.example-company.com`,
        });
    const admin = await server.login(adminEmail);
    const researcher = await server.as(Role.Researcher, { organizationId: org });
    const p = await createProject(server, researcher, { name: 'Players about onboarding and retention' });
    await fillQuestionnaire(server, researcher, p.id);
    const moved = await server.call('POST', '/project/status', {
      session: admin,
      body: { pid: p.id, status: ProjectStatus.OnModeration },
    });
    expect(moved.status).toBe(200);
    await server.call('POST', '/tariffs', { session: admin, body: { name: 'Basic', discount: 5 } });
    const issuer = await server.as(Role.Issuer, { organizationId: org });
    const [genres, platforms, currencies] = await Promise.all(
      ['/games/genres', '/games/platforms', '/games/currencies'].map((p) =>
        server.call('GET', p, { session: issuer }),
      ),
    );
    const game = await server.call('POST', '/games', {
      session: issuer,
      body: {
        name: 'Space Farm: the very long game title of the season',
        genreId: genres.body[0].id,
        platformId: platforms.body[0].id,
        currencyId: currencies.body[0].id,
        url: 'https://games.example-company.com/space-farm/the-very-long-address/of-the-game',
      },
    });
    expect(game.status).toBe(201);
    // Two old log entries, ten days back, for the date filter.
    const old = Date.now() - 10 * DAY;
    await server.app.db
      .insertInto('history')
      .values(
        ['First old entry', 'Second old entry'].map((name, i) => ({
          user_id: null,
          email: 'old@example.com',
          organization: '',
          chapter: 'tariffs',
          service: 'POST /tariffs',
          message_key: 'pricing.log.tariffCreated',
          message_params: JSON.stringify({ name, discount: 1 }),
          created_at: old + i,
        })),
      )
      .execute();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(
    width: number,
    sidebar: 'rail' | 'full' = 'rail',
  ): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({ locale: 'en', viewport: { width, height: 900 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, server, adminEmail);
    if (sidebar === 'full') {
      await page.evaluate(() =>
        localStorage.setItem('app-settings', JSON.stringify({ shrinkSideMenu: false, locale: 'en' })),
      );
      await page.reload();
    }
    return { page, errors };
  }

  const LIST_PAGES: [string, string][] = [
    ['/demo-researchers', 'Demo researchers'],
    ['/researchers', 'Researchers'],
    ['/issuers', 'Issuers'],
    ['/moderators', 'Moderators'],
    ['/games', 'Games'],
    ['/tariffs', 'Tariffs'],
    ['/projects', 'Questionnaires'],
    ['/reports', 'Reports'],
    ['/history', 'Logs'],
  ];

  async function visit(page: Page, path: string, heading: string) {
    await page.goto(`${server.url}${path}`);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    await poll(() => page.getByRole('progressbar').count()).toBe(0);
  }

  /** How far the window scrolls past its own edges (0 when the layout holds). */
  const windowOverflow = (page: Page) =>
    page.evaluate(() => {
      const el = document.scrollingElement!;
      return { x: el.scrollWidth - el.clientWidth, y: el.scrollHeight - el.clientHeight };
    });

  /** The right edge of each row's last action, against the width of the window. */
  const actionEdges = (page: Page) =>
    page.evaluate(() =>
      [...document.querySelectorAll('tbody tr')]
        .map((tr) => [...tr.querySelectorAll('td:last-child button, td:last-child a')].pop())
        .filter((b): b is Element => !!b)
        .map((b) => b.getBoundingClientRect().right),
    );

  for (const sidebar of ['rail', 'full'] as const) {
    it(`keeps every row's actions on screen at 1 440 px with the ${sidebar} sidebar`, async () => {
      const { page, errors } = await open(1440, sidebar);
      for (const [path, heading] of LIST_PAGES) {
        await visit(page, path, heading);
        if (path === '/history') continue; // no row actions
        const edges = await actionEdges(page);
        // Reports lists only projects with a survey running; none here.
        if (path !== '/reports') expect(edges.length, path).toBeGreaterThan(0);
        for (const right of edges) expect(right, path).toBeLessThanOrEqual(1440);
        expect(await windowOverflow(page), path).toEqual({ x: 0, y: 0 });
      }
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }

  it('never lets a list page overflow the window at 360 px: wide tables scroll inside their frame', async () => {
    const { page } = await open(360);
    const more: [string, string][] = [
      ['/calculator', 'Calculator'],
      ['/profile', 'Profile'],
    ];
    for (const [path, heading] of [...LIST_PAGES, ...more]) {
      await visit(page, path, heading);
      expect(await windowOverflow(page), path).toEqual({ x: 0, y: 0 });
      // Nor the page's own scrolling box: it scrolled sideways into blank space when a table's hidden
      // label or a card wider than a phone stuck out (found trying the product, 2026-11-29).
      const main = await page.evaluate(() => {
        const el = document.getElementById('content')!;
        return el.scrollWidth - el.clientWidth;
      });
      expect(main, path).toBeLessThanOrEqual(0);
      // Nothing inside the page reaches past the window's right edge except within a scrolling frame.
      const sticking = await page.evaluate(() => {
        const main = document.getElementById('content')!;
        const out: string[] = [];
        for (const el of main.querySelectorAll<HTMLElement>('h1, input, select, button, nav, label')) {
          if (el.closest('.overflow-x-auto')) continue;
          const r = el.getBoundingClientRect();
          if (r.width > 0 && r.right > window.innerWidth) out.push(el.outerHTML.slice(0, 80));
        }
        return out;
      });
      expect(sticking.join('\n'), path).toBe('');
    }
    await page.context().close();
  });

  it("keeps a row's menu on screen when there is no room below its button", async () => {
    // A phone held sideways or a short window: the menu opens above its button, or scrolls.
    const context = await browser.newContext({ locale: 'en', viewport: { width: 360, height: 420 } });
    const page = await context.newPage();
    await signIn(page, server, adminEmail);
    await visit(page, '/projects', 'Questionnaires');
    const more = page.getByRole('button', { name: /^More actions for project/ }).first();
    await more.scrollIntoViewIfNeeded();
    await more.click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem').first().waitFor();
    const box = await menu.boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(420);
    // Every item can be reached: the last one is on screen, or the menu scrolls to it.
    await menu.getByRole('menuitem').last().scrollIntoViewIfNeeded();
    const reached = await menu.getByRole('menuitem').last().boundingBox();
    expect(reached!.y + reached!.height).toBeLessThanOrEqual(420);
    await context.close();
  });

  it('shows links outside a group as their own section, not nested in the group above', async () => {
    const { page } = await open(1440, 'full');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    const box = async (name: string) => (await nav.getByRole('link', { name, exact: true }).boundingBox())!;
    const child = await box('Moderators');
    const games = await box('Games');
    const logs = await box('Logs');
    // Group children are indented; a link after a group starts at the group's own edge…
    expect(games.x).toBeLessThan(child.x);
    expect(logs.x).toBe(games.x);
    // …under a rule that closes the group.
    for (const name of ['Games', 'Logs']) {
      const rule = await nav
        .getByRole('link', { name, exact: true })
        .evaluate((a) => getComputedStyle(a.closest('li')!).borderTopWidth);
      expect(rule, name).toBe('1px');
    }
    const questionnaires = await nav
      .getByRole('link', { name: 'Questionnaires', exact: true })
      .evaluate((a) => getComputedStyle(a.closest('li')!).borderTopWidth);
    expect(questionnaires).toBe('0px');
    await page.context().close();
  });

  it('names statuses in the log and filters it by date', async () => {
    const { page } = await open(1440);
    await visit(page, '/history', 'Logs');
    const row = page.getByRole('row', { name: /Status of project #\d+ changed/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('Created → On moderation');
    expect(await page.locator('tbody').textContent()).not.toMatch(/changed: \d+ → \d+/);

    const day = new Date(Date.now() - 10 * DAY);
    const pad = (n: number) => String(n).padStart(2, '0');
    await page
      .getByLabel('Up to and including')
      .fill(`${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`);
    await poll(() => page.locator('tbody tr').count()).toBe(2);
    expect(await page.locator('tbody').textContent()).toContain('Tariff “Second old entry” added');
    await page.getByLabel('Up to and including').fill('');
    await poll(() => page.locator('tbody tr').count()).toBeGreaterThan(2);
    await page.context().close();
  });

  it('shows toasts below the header, never over the user menu', async () => {
    for (const width of [1440, 360]) {
      const { page } = await open(width);
      await visit(page, '/tariffs', 'Tariffs');
      await page.getByRole('button', { name: 'Add tariff' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Name').fill(`Toast ${width}`);
      await dialog.getByLabel('Discount, %').fill('3');
      await dialog
        .getByRole('button', { name: /save|add|create/i })
        .last()
        .click();
      const toast = page.locator('[data-toast-kind="success"]');
      await toast.waitFor();
      const header = (await page.locator('header').first().boundingBox())!;
      expect((await toast.boundingBox())!.y).toBeGreaterThanOrEqual(header.y + header.height);
      // The menu opened while the toast shows is on top of it.
      await page.getByRole('button', { name: /user menu/i }).click();
      const logout = page.getByRole('menuitem', { name: 'Logout' });
      await logout.waitFor();
      const b = (await logout.boundingBox())!;
      const onTop = await page.evaluate(
        ([x, y]) => !!document.elementFromPoint(x, y)?.closest('[role="menuitem"]'),
        [b.x + b.width / 2, b.y + b.height / 2],
      );
      expect(onTop, `width ${width}`).toBe(true);
      await page.context().close();
    }
  });

  it('ends the calculator page with its content', async () => {
    for (const width of [1440, 360]) {
      const { page } = await open(width);
      await visit(page, '/calculator', 'Calculator');
      await page.getByRole('heading', { name: 'Price estimate' }).waitFor();
      expect(await windowOverflow(page)).toEqual({ x: 0, y: 0 });
      // Scrolled to the end, nothing but the page's own padding is left below its last element.
      const gap = await page.evaluate(() => {
        const main = document.getElementById('content')!;
        main.scrollTop = main.scrollHeight;
        const section = main.firstElementChild!;
        return main.getBoundingClientRect().bottom - section.getBoundingClientRect().bottom;
      });
      expect(gap, `width ${width}`).toBeGreaterThanOrEqual(-1);
      expect(gap, `width ${width}`).toBeLessThanOrEqual(1);
      await page.context().close();
    }
  });

  it('names the maximum when a number is over it, in every form', async () => {
    const { page } = await open(1440);
    await visit(page, '/tariffs', 'Tariffs');
    await page.getByRole('button', { name: 'Add tariff' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Too generous');
    await dialog.getByLabel('Discount, %').fill('101');
    await dialog
      .getByRole('button', { name: /save|add|create/i })
      .last()
      .click();
    await dialog.getByText('At most 100').waitFor();
    expect(await dialog.getByText('Invalid value').count()).toBe(0);
    await dialog.locator('[data-close]').click();

    await visit(page, '/calculator', 'Calculator');
    await page.getByLabel('Percent VK (For researchers)').fill('150');
    await page.getByText('At most 100').first().waitFor();

    await visit(page, '/projects', 'Questionnaires');
    await page.getByRole('button', { name: 'Create project' }).click();
    await dialog.getByLabel('Name', { exact: true }).fill('Priority test');
    await dialog.getByLabel('Priority (0–100)').fill('1000');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('At most 100').waitFor();
    await page.context().close();
  });
});
