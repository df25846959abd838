import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { insertSurveyProject } from './survey-fixtures';
import {
  newAnswer,
  newBlock,
  newPortrait,
  newQuestion,
  newQuestionnaire,
} from '../../src/domain/content/factory';
import type { ProjectContent } from '../../src/domain/content/model';
import { GameStatus } from '../../src/domain/gameStatus';
import { ProjectStatus } from '../../src/domain/projects';
import { Role } from '../../src/domain/roles';
import { countOffer } from '../../server/players/stats';
import { DAY_MS } from '../../src/domain/players';

// Issue 24, parts 2 and 3: a game player's answers to writeToDb questions land in their record (the
// four mapped fields checked against the target fields' values, any other name as text), the next
// SDK call matches portraits from it, the publisher reads and erases it, and the game's numbers per
// day add up to what happened. Runs on SQLite and, with TEST_DATABASE_URL, on PostgreSQL.

let server: TestServer;
let org: number;
let issuer: Session;
let otherIssuer: Session;
let admin: Session;
let game: { id: number; apiKey: string; token: string };

const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

async function insertGame(organizationId: number) {
  const db = server.app.db;
  const id = (t: 'game_genres' | 'game_platforms') => db.selectFrom(t).select('id').executeTakeFirstOrThrow();
  const currency = await db.selectFrom('game_currencies').select('id').executeTakeFirstOrThrow();
  const apiKey = crypto.randomBytes(12).toString('hex');
  const token = crypto.randomBytes(12).toString('hex');
  const now = Date.now();
  const row = await db
    .insertInto('games')
    .values({
      name: `Game ${apiKey.slice(0, 6)}`,
      name_norm: `game ${apiKey.slice(0, 6)}`,
      organization_id: organizationId,
      genre_id: (await id('game_genres')).id,
      platform_id: (await id('game_platforms')).id,
      currency_id: currency.id,
      status: GameStatus.Connected,
      url: 'https://example.com',
      api_key_hash: sha(apiKey),
      api_key_prefix: 'x',
      api_key_suffix: 'x',
      token_hash: sha(token),
      token_prefix: 'x',
      token_suffix: 'x',
      sdk_connected_at: now,
      last_sdk_at: now,
      created_by: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, apiKey, token };
}

const ans = (id: string, text: string) => newAnswer({ id, text });
/** Every mapped field, two free-named ones, and questions whose answers cannot map. */
function recordContent(portraits: ProjectContent['portraits']): ProjectContent {
  return {
    questionnaires: [
      newQuestionnaire({
        id: 'Q1',
        blocks: [
          newBlock({
            id: 'B1',
            questions: [
              newQuestion({
                id: 'sex',
                text: 'Your gender?',
                answers: [ans('m', 'Мужской'), ans('f', 'Female'), ans('x', 'Не скажу')],
                writeToDb: true,
                dbFields: ['gender'],
              }),
              newQuestion({
                id: 'sexText',
                text: 'Your gender, in words?',
                category: 'open',
                writeToDb: true,
                dbFields: ['gender'],
              }),
              newQuestion({
                id: 'age',
                text: 'Age?',
                category: 'fromTo',
                scale: { min: 5, max: 120, step: 1 },
                writeToDb: true,
                dbFields: ['age'],
              }),
              newQuestion({
                id: 'city',
                text: 'City?',
                category: 'cityAuto',
                writeToDb: true,
                dbFields: ['city'],
              }),
              newQuestion({
                id: 'edu',
                text: 'Education?',
                answers: [ans('e1', 'Высшее'), ans('e2', 'Среднее профессиональное'), ans('e3', 'Другое')],
                writeToDb: true,
                dbFields: ['education', 'edu_label'],
              }),
              newQuestion({
                id: 'nick',
                text: 'Your nickname?',
                category: 'open',
                writeToDb: true,
                dbFields: ['nickname'],
              }),
              newQuestion({ id: 'plain', text: 'Not written', answers: [ans('p1', 'Yes')] }),
            ],
          }),
        ],
      }),
    ],
    portraits,
  };
}

async function askSurvey(playerId: string, attributes: Record<string, unknown> = {}) {
  return server.call('POST', '/games/sdk/survey', {
    body: { apiKey: game.apiKey, token: game.token, player: { id: playerId, ...attributes } },
  });
}

/** Takes a survey through the SDK's address and answers every page with `replies` (by question id). */
async function takeSurvey(url: string, replies: Record<string, unknown>) {
  const token = new URL(url).pathname.split('/').pop()!;
  const start = await server.call('POST', `/survey/${token}/start`, { body: {} });
  expect(start.body.state).toBe('started');
  const order = ['sex', 'sexText', 'age', 'city', 'edu', 'nick', 'plain'];
  let last;
  for (const [at, questionId] of order.entries()) {
    last = await server.call('POST', '/survey/answer', {
      body: { at, questionId, reply: replies[questionId] },
      headers: { 'x-respondent-token': start.body.token },
    });
    expect(last.status, JSON.stringify(last.body)).toBe(200);
  }
  return last!.body;
}

const record = (playerId: string, session = issuer) =>
  server.call('GET', `/games/player?gameId=${game.id}&playerId=${encodeURIComponent(playerId)}`, { session });

let firstProject: number;

beforeAll(async () => {
  server = await startServer();
  org = await server.createOrganization();
  issuer = await server.as(Role.Issuer, { organizationId: org });
  otherIssuer = await server.as(Role.Issuer);
  admin = await server.as(Role.Administrator);
  game = await insertGame(org);
  firstProject = (
    await insertSurveyProject(
      server,
      recordContent([newPortrait({ id: 'all', respondents: 100, params: [] })]),
      {
        template: 'target',
      },
    )
  ).pid;
});
afterAll(() => server.close());

describe('answers written to the player’s record', () => {
  it('maps gender, age, city and education onto their values and keeps other fields as text', async () => {
    const res = await askSurvey('player-1');
    expect(res.status).toBe(200);
    const end = await takeSurvey(res.body.url, {
      sex: { answers: ['f'] },
      sexText: { text: 'no idea' },
      age: { value: 25 },
      city: { text: 'MOS:Podolsk' },
      edu: { answers: ['e1'] },
      nick: { text: '  DragonSlayer  ' },
      plain: { answers: ['p1'] },
    });
    expect(end.status).toBe('completed');
    const r = await record('player-1');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      gameId: game.id,
      playerId: 'player-1',
      gender: 'female',
      age: 25,
      city: 'MOS:Podolsk',
      education: 'higher',
      fields: { edu_label: 'Высшее', nickname: 'DragonSlayer' },
    });
    // Only the named fields: the question without writeToDb wrote nothing.
    expect(Object.keys(r.body.fields).sort()).toEqual(['edu_label', 'nickname']);
    // The Administrator reads it too; another organization's Issuer does not see the game.
    expect((await record('player-1', admin)).body.gender).toBe('female');
    expect((await record('player-1', otherIssuer)).status).toBe(404);
    expect((await record('nobody')).status).toBe(404);
  });

  it('stores an answer that does not map nowhere; a free-named field takes any answer', async () => {
    const res = await askSurvey('player-2');
    expect(res.status).toBe(200);
    await takeSurvey(res.body.url, {
      sex: { answers: ['x'] }, // "Не скажу" is no gender
      sexText: { text: 'whatever' }, // typed, not a gender either
      age: { value: 120 }, // past the ages the target field knows
      city: { text: 'MOS:Podolsk' },
      edu: { answers: ['e3'] }, // "Другое" is no education level
      nick: { text: 'Nick' },
      plain: { answers: ['p1'] },
    });
    const r = await record('player-2');
    expect(r.body).toMatchObject({ gender: null, age: null, education: null, city: 'MOS:Podolsk' });
    // The free-named field takes any answer as text.
    expect(r.body.fields).toEqual({ edu_label: 'Другое', nickname: 'Nick' });
    const rows = await server.app.db
      .selectFrom('game_players')
      .selectAll()
      .where('player_id', '=', 'player-2')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ gender: null, age: null, education: null, region: 'MOS' });
  });

  it('writes nothing for a direct-link respondent (no game, no player id)', async () => {
    const before = await server.app.db.selectFrom('game_players').select('id').execute();
    const { link } = await insertSurveyProject(server, recordContent([]), { template: 'directLink' });
    const start = await server.call('POST', `/survey/${link}/start`, { body: {} });
    await server.call('POST', '/survey/answer', {
      body: { at: 0, questionId: 'sex', reply: { answers: ['m'] } },
      headers: { 'x-respondent-token': start.body.token },
    });
    expect(await server.app.db.selectFrom('game_players').select('id').execute()).toEqual(before);
  });
});

describe('a game deleted while its player answers', () => {
  it('still takes the answer and writes no record', async () => {
    const doomed = await insertGame(org);
    const saved = game;
    game = doomed;
    const res = await askSurvey('leaving');
    game = saved;
    expect(res.status).toBe(200);
    const token = new URL(res.body.url).pathname.split('/').pop()!;
    const start = await server.call('POST', `/survey/${token}/start`, { body: {} });
    const headers = { 'x-respondent-token': start.body.token };
    // The first answer keeps the respondent in the server's memory, game id and all.
    await server.call('POST', '/survey/answer', {
      body: { at: 0, questionId: 'sex', reply: { answers: ['m'] } },
      headers,
    });
    await server.app.db.deleteFrom('games').where('id', '=', doomed.id).execute();
    const next = await server.call('POST', '/survey/answer', {
      body: { at: 1, questionId: 'sexText', reply: { text: 'male' } },
      headers,
    });
    expect(next.status).toBe(200);
    expect(
      await server.app.db.selectFrom('game_players').select('id').where('game_id', '=', doomed.id).execute(),
    ).toEqual([]);
  });
});

describe('the SDK matches portraits from the stored record', () => {
  it('uses the stored gender, age, city and education when the call omits them', async () => {
    // The first project stops; a second one wants women of 18–30 with higher education from Moscow region.
    await server.app.db
      .updateTable('projects')
      .set({ status: ProjectStatus.Paused })
      .where('id', '=', firstProject)
      .execute();
    const { pid } = await insertSurveyProject(
      server,
      recordContent([
        newPortrait({
          id: 'women',
          respondents: 10,
          params: [
            { field: 'gender', values: ['female'], min: null, max: null },
            { field: 'age', values: [], min: 18, max: 30 },
            { field: 'education', values: ['higher'], min: null, max: null },
          ],
        }),
      ]),
      { template: 'target' },
    );
    // player-1 told us (female, 25, higher): matched without a word from the game.
    const matched = await askSurvey('player-1');
    expect(matched.status).toBe(200);
    const ticket = await server.app.db
      .selectFrom('survey_tickets')
      .selectAll()
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(ticket.project_id).toBe(pid);
    expect(JSON.parse(ticket.player)).toMatchObject({
      playerId: 'player-1',
      gender: 'female',
      age: 25,
      city: 'MOS:Podolsk',
      education: 'higher',
    });
    // What the call says wins over the record: a man is not matched.
    expect((await askSurvey('player-1', { gender: 'male' })).status).toBe(204);
    // No record, no attributes: no portrait fits.
    expect((await askSurvey('stranger')).status).toBe(204);
    // player-2's record has no gender: not matched either.
    expect((await askSurvey('player-2')).status).toBe(204);
  });
});

describe('erasure', () => {
  it('erases the record, unlinks the respondents, keeps the answers counted, and logs it', async () => {
    const db = server.app.db;
    const linked = await db
      .selectFrom('respondents')
      .select(['id', 'project_id'])
      .where('game_id', '=', game.id)
      .where('player_id', '=', 'player-1')
      .execute();
    expect(linked.length).toBe(1);
    const reportBefore = await server.call('GET', `/project/stats/file?pid=${firstProject}&type=json`, {
      session: admin,
    });
    expect(reportBefore.status).toBe(200);

    expect(
      (
        await server.call('DELETE', '/games/player', {
          session: otherIssuer,
          body: { gameId: game.id, playerId: 'player-1' },
        })
      ).status,
    ).toBe(404);
    const res = await server.call('DELETE', '/games/player', {
      session: issuer,
      body: { gameId: game.id, playerId: 'player-1' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ record: true, respondents: 1 });
    expect((await record('player-1')).status).toBe(404);
    expect(await db.selectFrom('game_player_fields').selectAll().execute()).not.toContainEqual(
      expect.objectContaining({ value: 'DragonSlayer' }),
    );
    const after = await db
      .selectFrom('respondents')
      .selectAll()
      .where('id', '=', linked[0].id)
      .executeTakeFirstOrThrow();
    expect(after.player_id).toBeNull();
    expect(after.game_id).toBe(game.id);
    // The unused ticket issued for them above no longer names them.
    const tickets = await db
      .selectFrom('survey_tickets')
      .select('player')
      .where('game_id', '=', game.id)
      .execute();
    expect(tickets.filter((t) => t.player.includes('player-1'))).toEqual([]);
    // The answers stay and still count in the report.
    const reportAfter = await server.call('GET', `/project/stats/file?pid=${firstProject}&type=json`, {
      session: admin,
    });
    expect(reportAfter.body.respondents).toEqual(reportBefore.body.respondents);
    expect(reportAfter.body.respondents.completed).toBe(2);
    expect(reportAfter.body.questions).toEqual(reportBefore.body.questions);
    // Logged, without the player id.
    const log = await db
      .selectFrom('history')
      .selectAll()
      .where('message_key', '=', 'players.log.erased')
      .execute();
    expect(log).toHaveLength(1);
    expect(log[0].message_params).not.toContain('player-1');
    // Again: nothing left to erase, said so.
    const again = await server.call('DELETE', '/games/player', {
      session: admin,
      body: { gameId: game.id, playerId: 'player-1' },
    });
    expect(again.body).toEqual({ record: false, respondents: 0 });
    const bad = await server.call('DELETE', '/games/player', {
      session: issuer,
      body: { gameId: game.id, playerId: 'a\u0000b' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBeTruthy();
  });
});

describe('a game’s numbers per day', () => {
  it('counts offers, starts, completions and screen-outs by UTC day', async () => {
    const db = server.app.db;
    const other = await insertGame(org);
    const { pid } = await insertSurveyProject(server, recordContent([]), {
      template: 'target',
      status: ProjectStatus.Paused,
    });
    const day0 = Math.floor(Date.UTC(2026, 0, 10) / DAY_MS);
    const at = (day: number, hour: number) => (day0 + day) * DAY_MS + hour * 3_600_000;
    // Generated activity over three days: [day, offers, started, completed that day, screened out that day].
    const plan = [
      [0, 5, 4, 2, 1],
      [1, 0, 0, 0, 0],
      [2, 3, 3, 1, 0],
    ] as const;
    let n = 0;
    for (const [day, offers, started, completed, screened] of plan) {
      for (let i = 0; i < offers; i++) await countOffer(db, other.id, at(day, i));
      for (let i = 0; i < started; i++) {
        const status = i < completed ? 2 : i < completed + screened ? 3 : 1;
        await db
          .insertInto('respondents')
          .values({
            project_id: pid,
            questionnaire_id: 'Q1',
            portrait_id: null,
            token_hash: `stats-${n++}`,
            source: 'sdk',
            game_id: other.id,
            player_id: `p${n}`,
            gender: null,
            age: null,
            city: null,
            region: null,
            education: null,
            platform: null,
            status,
            state: '{}',
            locale: null,
            started_at: at(day, 10),
            updated_at: at(day, 10),
            // One of day 0's completions finishes after midnight: it counts on day 1.
            finished_at: status === 1 ? null : at(day, day === 0 && i === 0 ? 25 : 11),
            // Issue 31: day 2's completion was rejected by the researcher.
            excluded: day === 2 && status === 2 ? 1 : 0,
          })
          .execute();
      }
    }
    // Another game's activity does not count.
    await countOffer(db, game.id, at(0, 1));
    // Block callbacks of its respondents: counted when delivered (by the day of delivery) or failed
    // for good (by the day the block was completed); one still being retried is neither.
    const ids = (
      await db.selectFrom('respondents').select('id').where('game_id', '=', other.id).orderBy('id').execute()
    ).map((r) => r.id);
    const delivery = (i: number, status: string, created: number, delivered: number | null) =>
      db
        .insertInto('callback_deliveries')
        .values({
          id: `stats-delivery-${i}`,
          project_id: pid,
          block_id: 'B1',
          respondent_id: ids[i],
          url: 'http://127.0.0.1:9/',
          body: '{}',
          test: 0,
          status: status as 'pending',
          attempts: 1,
          last_status_code: null,
          last_error: null,
          // Not due while the test runs, so the server's sender leaves the pending one alone.
          next_attempt_at: Date.now() + DAY_MS,
          lease_until: null,
          created_at: created,
          delivered_at: delivered,
        })
        .execute();
    await delivery(0, 'delivered', at(0, 11), at(1, 2));
    await delivery(1, 'gave-up', at(0, 11), null);
    await delivery(2, 'pending', at(0, 11), null);
    await delivery(3, 'refused', at(2, 11), null);
    await delivery(4, 'delivered', at(2, 11), at(2, 12));

    const stats = await server.call('GET', `/games/stats?gameId=${other.id}&from=2026-01-09&to=2026-01-12`, {
      session: issuer,
    });
    expect(stats.status).toBe(200);
    expect(stats.body.from).toBe('2026-01-09');
    expect(stats.body.days.map((d: { date: string }) => d.date)).toEqual([
      '2026-01-09',
      '2026-01-10',
      '2026-01-11',
      '2026-01-12',
    ]);
    const pick = (d: Record<string, number>) => [
      d.offered,
      d.started,
      d.completed,
      d.excluded,
      d.screenedOut,
      d.delivered,
      d.failed,
    ];
    expect(stats.body.days.map(pick)).toEqual([
      [0, 0, 0, 0, 0, 0, 0],
      [5, 4, 1, 0, 1, 0, 1],
      [0, 0, 1, 0, 0, 1, 0],
      [3, 3, 1, 1, 0, 1, 1],
    ]);
    expect(stats.body.totals).toEqual({
      offered: 8,
      started: 7,
      completed: 3,
      excluded: 1,
      screenedOut: 1,
      delivered: 2,
      failed: 2,
    });
    // Today's real SDK offers are counted by the SDK call itself (the first game's, above).
    const today = new Date().toISOString().slice(0, 10);
    const live = await server.call('GET', `/games/stats?gameId=${game.id}&from=${today}&to=${today}`, {
      session: admin,
    });
    expect(live.body.days[0]).toMatchObject({ offered: 3, started: 2, completed: 2 });
    // Bounds and access.
    const range = (q: string) =>
      server.call('GET', `/games/stats?gameId=${other.id}${q}`, { session: issuer });
    expect((await range('&from=2026-01-10&to=2026-01-09')).status).toBe(400);
    expect((await range('&from=2024-01-01&to=2025-01-02')).status).toBe(400); // 368 days
    expect((await range('&from=2025-01-01&to=2026-01-01')).status).toBe(200); // 366 days
    expect((await range('&from=2026-02-30')).status).toBe(400);
    expect((await range('&from=9999-01-01')).status).toBe(400);
    expect((await range('')).body.days).toHaveLength(30);
    const wrong = await server.call('GET', `/games/stats?gameId=${other.id}`, { session: otherIssuer });
    expect(wrong.status).toBe(404);
  });
});
