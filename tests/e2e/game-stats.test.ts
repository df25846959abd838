import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { axeFull, axeLines, launchBrowser, newAuditPage, signIn, startApp, watchErrors } from './helpers';
import type { TestServer } from '../server/helpers';
import { insertSurveyProject, surveyContent } from '../server/survey-fixtures';
import { Role } from '../../src/domain/roles';
import { GameStatus } from '../../src/domain/gameStatus';
import { ProjectStatus } from '../../src/domain/projects';
import { DAY_MS } from '../../src/domain/players';
import { countOffer } from '../../server/players/stats';

// Issue 24, part 3 in Chromium: an Issuer opens a game's numbers from its row on /games: a chart
// (uPlot, downloaded only then) and a table per day that say what the game's activity was, then
// finds a player's record and erases it; axe's
// full rule set finds nothing serious on the open dialog; screenshots at 1440 and 360 px.

describe('a game’s numbers on /games', () => {
  let server: TestServer;
  let browser: Browser;
  let issuerEmail: string;
  const today = Math.floor(Date.now() / DAY_MS);
  const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    const db = server.app.db;
    const org = await server.createOrganization('Pixel Forge');
    issuerEmail = (await server.createUser({ role: Role.Issuer, organizationId: org })).email;
    const id = (t: 'game_genres' | 'game_platforms') =>
      db.selectFrom(t).select('id').executeTakeFirstOrThrow();
    const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
    const now = Date.now();
    const game = await db
      .insertInto('games')
      .values({
        name: 'Star Puzzle',
        name_norm: 'star puzzle',
        organization_id: org,
        genre_id: (await id('game_genres')).id,
        platform_id: (await id('game_platforms')).id,
        currency_id: (await db.selectFrom('game_currencies').select('id').executeTakeFirstOrThrow()).id,
        status: GameStatus.Connected,
        url: 'https://play.example.com/star-puzzle',
        api_key_hash: sha('k'),
        api_key_prefix: 'gk_',
        api_key_suffix: 'kkkk',
        token_hash: sha('t'),
        token_prefix: 'gt_',
        token_suffix: 'tttt',
        sdk_connected_at: now,
        last_sdk_at: now,
        created_by: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { pid } = await insertSurveyProject(server, surveyContent(), {
      template: 'target',
      status: ProjectStatus.Paused,
    });
    // Three days of activity: 12, 7 and 9 offers; most offered players start, some finish.
    // Columns: offered, started, completed, excluded, screened out, delivered, failed.
    const plan = [
      { day: today - 2, offers: 12, started: 10, completed: 6, screened: 2 },
      { day: today - 1, offers: 7, started: 5, completed: 3, screened: 1 },
      { day: today, offers: 9, started: 8, completed: 4, screened: 0 },
    ];
    let n = 0;
    for (const p of plan) {
      const at = (hour: number) => p.day * DAY_MS + hour * 3_600_000;
      for (let i = 0; i < p.offers; i++) await countOffer(db, game.id, at(1));
      for (let i = 0; i < p.started; i++) {
        const status = i < p.completed ? 2 : i < p.completed + p.screened ? 3 : 1;
        await db
          .insertInto('respondents')
          .values({
            project_id: pid,
            questionnaire_id: 'Q1',
            portrait_id: null,
            token_hash: `e2e-${n++}`,
            source: 'sdk',
            game_id: game.id,
            player_id: `player-${n}`,
            gender: null,
            age: null,
            city: null,
            region: null,
            education: null,
            platform: null,
            status,
            state: '{}',
            locale: null,
            started_at: at(2),
            updated_at: at(2),
            finished_at: status === 1 ? null : at(3),
            // One of the first day's completes was excluded by the researcher (issue 31).
            excluded: p.day === today - 2 && i === 0 ? 1 : 0,
          })
          .execute();
      }
    }
    // One player told the game's surveys about themselves.
    const player = await db
      .insertInto('game_players')
      .values({
        game_id: game.id,
        player_id: 'player-1',
        gender: 'female',
        age: 30,
        city: null,
        region: null,
        education: 'higher',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('game_player_fields')
      .values({ game_player_id: player.id, name: 'nickname', value: 'StarQueen', updated_at: now })
      .execute();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('opens a game’s numbers per day (the chart loaded only then) and erases a player’s record', async () => {
    const page = await newAuditPage(browser);
    const errors = watchErrors(page);
    const chunks: string[] = [];
    page.on('request', (r) => chunks.push(r.url()));
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, server, issuerEmail);
    await page.goto(`${server.url}/games`);
    await page.getByRole('cell', { name: 'Star Puzzle', exact: true }).waitFor();
    expect(chunks.filter((u) => /StatsChart|uPlot/.test(u))).toEqual([]);

    await page.getByRole('button', { name: 'Numbers and players of the game “Star Puzzle”' }).click();
    const dialog = page.getByRole('dialog', { name: 'Game “Star Puzzle”: numbers and players' });
    await dialog.waitFor();
    const table = dialog.getByRole('table', { name: 'Numbers by day (UTC)' });
    await table.waitFor();
    await dialog.locator('[data-chart="game-stats"] canvas').waitFor();
    expect(chunks.filter((u) => /StatsChart|uPlot/.test(u)).length).toBeGreaterThan(0);
    await dialog.getByRole('img', { name: /Chart by day/ }).waitFor();

    // The table reads what happened: 30 days, three of them with activity, and the totals.
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(30);
    const cells = async (i: number) => (await rows.nth(i).locator('td').allTextContents()).map(Number);
    expect(await cells(27)).toEqual([12, 10, 6, 1, 2, 0, 0]);
    expect(await cells(28)).toEqual([7, 5, 3, 0, 1, 0, 0]);
    expect(await cells(29)).toEqual([9, 8, 4, 0, 0, 0, 0]);
    expect(await cells(0)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect((await table.locator('tfoot td').allTextContents()).map(Number)).toEqual([28, 23, 13, 1, 3, 0, 0]);

    const findings = await axeFull(page);
    expect(axeLines(findings)).toEqual([]);
    await page.screenshot({ path: '/tmp/players-stats-1440.png' });

    // A narrower span: the last two days only.
    await dialog.getByLabel('From').fill(isoDay(today - 1));
    await dialog.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => rows.count()).toBe(2);
    expect((await table.locator('tfoot td').allTextContents()).map(Number)).toEqual([16, 13, 7, 0, 1, 0, 0]);
    // A span past a year is refused in the form, with the reason.
    await dialog.getByLabel('From').fill('2020-01-01');
    await dialog.getByText('The period is at most 366 days').waitFor();
    expect(await dialog.getByRole('button', { name: 'Show' }).isDisabled()).toBe(true);
    await dialog.getByLabel('From').fill(isoDay(today - 29));
    await dialog.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => rows.count()).toBe(30);

    // A player's record, found by their SDK id and erased at their request (confirmed inline).
    await dialog.getByLabel('Player id in the SDK').fill('player-1');
    await dialog.getByRole('button', { name: 'Find' }).click();
    const record = dialog.getByTestId('player-record');
    await record.waitFor();
    expect(await record.textContent()).toContain('Female');
    expect(await record.textContent()).toContain('StarQueen');
    expect(axeLines(await axeFull(page))).toEqual([]);
    await dialog.getByRole('button', { name: 'Erase the record' }).click();
    await record.scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/players-record-1440.png' });
    await dialog.getByText('Erase the record of player “player-1”?', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Yes, erase' }).click();
    await dialog.getByText('The record was erased; respondents unlinked: 1').waitFor();
    expect(await server.app.db.selectFrom('game_players').select('id').execute()).toEqual([]);
    await dialog.getByRole('button', { name: 'Find' }).click();
    await dialog.getByText('This player has no record').waitFor();

    await page.setViewportSize({ width: 360, height: 800 });
    await dialog.locator('[data-chart="game-stats"] canvas').waitFor();
    expect(axeLines(await axeFull(page))).toEqual([]);
    await page.screenshot({ path: '/tmp/players-stats-360.png', fullPage: true });
    // At 360 px the chart fits the dialog, and the page does not scroll sideways.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await dialog.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });
});
