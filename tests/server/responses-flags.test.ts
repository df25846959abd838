import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { insertSurveyProject } from './survey-fixtures';
import { answerAll, insertGame, qualityContent, record, replyOf, pageMsOf } from './responses-fixtures';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import type { RespondentDetail, RespondentsPage } from '../../src/domain/responses';
import { recordRespondent, startRespondent } from '../../server/survey/respond';

// Issue 31: each quality flag on respondents built to trip it and on respondents built not to,
// answered through the runner's code; the reasons in plain words; page times measured by the server;
// the speeder rule's 30 completions and its threshold setting. Runs on SQLite, and on PostgreSQL
// with TEST_DATABASE_URL.

let server: TestServer;
let owner: Session;
let orgId: number;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

async function project(template = 'directLink') {
  const { pid, link } = await insertSurveyProject(server, qualityContent(), { template });
  const row = await server.app.db
    .selectFrom('projects')
    .select('organization_id')
    .where('id', '=', pid)
    .executeTakeFirstOrThrow();
  orgId = row.organization_id;
  owner = await server.as(Role.Researcher, { organizationId: orgId });
  return { pid, link };
}

async function list(pid: number, query = '', session = owner, locale: 'ru' | 'en' = 'en') {
  const res = await server.call('GET', `/project/respondents?pid=${pid}&pageSize=200${query}`, {
    session,
    locale,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as RespondentsPage;
}

async function detail(pid: number, id: number, locale: 'ru' | 'en' = 'en') {
  const res = await server.call('GET', `/project/respondent?pid=${pid}&id=${id}`, { session: owner, locale });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as RespondentDetail;
}

const ids = (page: RespondentsPage) => page.items.map((r) => r.id).sort((a, b) => a - b);

describe('quality flags', () => {
  it('flag speeders, straight-liners and gibberish built to trip them, and no one else', async () => {
    const { pid } = await project();
    const start = Date.UTC(2026, 2, 1);
    const at = (i: number) => start + i * 600_000;
    // A speeder among the first ten: the rule does not apply before 30 completions.
    const early: number[] = [];
    for (let i = 0; i < 9; i++) early.push(await record(server, pid, 'normal', i, at(i)));
    const earlyFast = await record(server, pid, 'fast', 9, at(9));
    expect((await list(pid, '&flag=speeder')).total).toBe(0);
    const normal = [...early];
    for (let i = 10; i < 32; i++) normal.push(await record(server, pid, 'normal', i, at(i)));
    const fast = await record(server, pid, 'fast', 40, at(40));
    const straight = await record(server, pid, 'straight', 41, at(41));
    const gibberish = await record(server, pid, 'gibberish', 42, at(42));

    // Once 30 had completed, the median moved the early speeder's flag too.
    expect(ids(await list(pid, '&flag=speeder'))).toEqual([earlyFast, fast].sort((a, b) => a - b));
    expect(ids(await list(pid, '&flag=straight-liner'))).toEqual([straight]);
    expect(ids(await list(pid, '&flag=gibberish'))).toEqual([gibberish]);
    expect(ids(await list(pid, '&flag=none'))).toEqual(normal.sort((a, b) => a - b));
    expect((await list(pid, '&flag=any')).total).toBe(4);

    const rows = (await list(pid)).items;
    const byId = new Map(rows.map((r) => [r.id, r]));
    // 8 pages × 2 s = 16 s; most took 8 × 20–26 s, so half the median is over 80 s.
    const speeder = byId.get(fast)!.flags[0];
    expect(speeder).toMatchObject({ name: 'speeder', seconds: 16, percent: 50 });
    expect(speeder.reason).toMatch(/^Finished in 16 s; half the median is \d+ min \d+ s$/);
    expect(byId.get(fast)!.durationSeconds).toBe(16);
    const line = byId.get(straight)!.flags;
    expect(line.map((f) => f.name)).toEqual(['straight-liner']);
    expect(line[0].reason).toBe('All 4 statements of the matrix (question 3) answered in the same column');
    const junk = byId.get(gibberish)!.flags;
    expect(junk[0]).toMatchObject({
      name: 'gibberish',
      questionId: 'why',
      rule: 'mashing',
      text: 'фывапролдж',
    });
    expect(junk[0].reason).toBe('The answer to question 2 looks like keyboard mashing: “фывапролдж”');
    // The reasons are written in the reader's language.
    const ru = (await list(pid, '&flag=gibberish', owner, 'ru')).items[0].flags[0].reason;
    expect(ru).toBe('Ответ на вопрос 2 похож на случайный набор клавиш: «фывапролдж»');

    // The respondent page marks the answers a flag points at, and shows the times of each page.
    const d = await detail(pid, straight);
    expect(d.pageTimes).toBe(true);
    expect(d.answers.map((a) => a.seconds)).toEqual(d.answers.map(() => pageMsOf('straight', 41) / 1000));
    expect(d.answers.find((a) => a.questionId === 'grid')!.flagged).toEqual(['straight-liner']);
    expect(d.answers.find((a) => a.questionId === 'why')!.flagged).toEqual([]);

    // The report's quality card counts the same.
    const report = await server.call('GET', `/project/stats/file?pid=${pid}&type=json`, { session: owner });
    expect(report.body.quality).toMatchObject({
      completed: 35,
      flagged: 4,
      excluded: 0,
      flags: [
        { name: 'speeder', count: 2 },
        { name: 'straight-liner', count: 1 },
        { name: 'gibberish', count: 1 },
        { name: 'duplicate', count: 0 },
      ],
    });
    expect(report.body.quality.percent).toBe(11.4);
    expect(report.body.timing.medianSeconds).toBeGreaterThan(150);
  });

  it('flag five scale answers in a row at one position, and leave the rule to the project’s threshold', async () => {
    const { pid } = await project();
    const start = Date.UTC(2026, 2, 2);
    for (let i = 0; i < 30; i++) await record(server, pid, 'normal', i, start + i * 600_000);
    // 8 pages of 10 s: 80 s against a median of about 185 s: a speeder at 50 %, not at 40 %.
    const slowish = await recordRespondent(server.app.db, {
      projectId: pid,
      source: 'link',
      pick: (page) => replyOf('normal', 99, page),
      pageMs: () => 10_000,
      now: start + 40 * 600_000,
    });
    expect(ids(await list(pid, '&flag=speeder'))).toEqual([slowish.respondentId]);
    const admin = await server.as(Role.Administrator);
    const set = await server.call('POST', '/project/project-settings', {
      session: admin,
      body: { pid, settings: { set_speeder_percent: 40 } },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect((await list(pid, '&flag=speeder')).total).toBe(0);
    const card = await server.call('GET', `/project/stats/file?pid=${pid}&type=json`, { session: owner });
    expect(card.body.quality.speeder).toMatchObject({ percent: 40, minCompleted: 30 });
    // A scale run of five at the top flags; the matrix alone is varied.
    const straight = await recordRespondent(server.app.db, {
      projectId: pid,
      source: 'link',
      pick: (page) =>
        page.question.id === 'grid' ? replyOf('normal', 1, page) : replyOf('straight', 1, page),
      pageMs: () => 20_000,
      now: start + 41 * 600_000,
    });
    const flags = (await list(pid, '&flag=straight-liner')).items;
    expect(flags.map((r) => r.id)).toEqual([straight.respondentId]);
    expect(flags[0].flags[0]).toMatchObject({
      kind: 'scale',
      count: 5,
      questionNumber: 4,
      lastQuestionNumber: 8,
    });
    expect(flags[0].flags[0].reason).toBe(
      '5 scale questions in a row (questions 4–8) answered at the same position',
    );
  });
});

describe('duplicates', () => {
  it('flag the second completion from the same browser, never the first, and no other browser', async () => {
    const { pid, link } = await project();
    const start = (browser?: string) =>
      server.call('POST', `/survey/${link}/start`, { body: browser ? { browser } : {} });
    const marker = 'm'.repeat(10) + 'Abc_123-xyz';
    const tokens: string[] = [];
    for (const browser of [marker, marker, 'another-browser-0001', undefined]) {
      const res = await start(browser);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      tokens.push(res.body.token);
    }
    for (const t of tokens)
      expect(await answerAll(server, t, (p) => replyOf('normal', 3, p))).toBe('completed');
    const rows = (await list(pid, '&sort=id')).items;
    expect(rows.map((r) => r.flags.map((f) => f.name))).toEqual([[], ['duplicate'], [], []]);
    expect(rows[1].flags[0]).toMatchObject({ by: 'browser', firstId: rows[0].id });
    expect(rows[1].flags[0].reason).toBe(
      `This browser has completed the survey before (respondent ${rows[0].id})`,
    );
    // Only the marker's hash is kept.
    const stored = await server.app.db
      .selectFrom('respondents')
      .select('browser_hash')
      .where('project_id', '=', pid)
      .execute();
    expect(stored.some((r) => r.browser_hash === marker)).toBe(false);
    expect(stored.filter((r) => r.browser_hash !== null)).toHaveLength(3);
    // A marker that is not one is refused by name.
    const bad = await start('short');
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('browser');
  });

  it('flag the same game player completing the same project twice', async () => {
    const { pid } = await project('target');
    const gameId = await insertGame(server, orgId);
    const p = { id: pid, status: ProjectStatus.OnRotation, template: 'target' };
    const started: string[] = [];
    for (const playerId of ['player-1', 'player-2', 'player-1']) {
      const s = await startRespondent(server.app.db, {
        project: p,
        source: 'sdk',
        gameId,
        attributes: { playerId },
      });
      if (s.outcome !== 'started') throw new Error(s.outcome);
      started.push(s.token);
    }
    for (const t of started) await answerAll(server, t, (page) => replyOf('normal', 5, page));
    const rows = (await list(pid, '&sort=id')).items;
    expect(rows.map((r) => r.flags.map((f) => f.name))).toEqual([[], [], ['duplicate']]);
    expect(rows[2].flags[0]).toMatchObject({ by: 'player', firstId: rows[0].id });
    expect(rows[2].game).toMatchObject({ id: gameId });
    expect(rows[2].source).toBe('sdk');
  });
});

describe('page times', () => {
  it('are measured by the server for respondents from now on, and absent for older ones', async () => {
    const { pid, link } = await project();
    const res = await server.call('POST', `/survey/${link}/start`, { body: {} });
    await answerAll(server, res.body.token, (p) => replyOf('normal', 1, p));
    const [row] = (await list(pid)).items;
    const d = await detail(pid, row.id);
    expect(d.pageTimes).toBe(true);
    expect(d.answers).toHaveLength(8);
    for (const a of d.answers) expect(a.seconds).toBeGreaterThanOrEqual(0);
    // A respondent from before: the state has no times.
    const state = JSON.parse(
      (
        await server.app.db
          .selectFrom('respondents')
          .select('state')
          .where('id', '=', row.id)
          .executeTakeFirstOrThrow()
      ).state,
    ) as Record<string, unknown>;
    delete state.times;
    await server.app.db
      .updateTable('respondents')
      .set({ state: JSON.stringify(state) })
      .where('id', '=', row.id)
      .execute();
    const old = await detail(pid, row.id);
    expect(old.pageTimes).toBe(false);
    expect(old.answers.map((a) => a.seconds)).toEqual(old.answers.map(() => null));
  });
});
