import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers';
import { GOOD, ORDER, insertSurveyProject, surveyContent } from './survey-fixtures';
import { ProjectStatus } from '../../src/domain/projects';
import { newPortrait } from '../../src/domain/content/factory';
import { SURVEY_LIMITS } from '../../server/routes/survey';
import { recordRespondent } from '../../server/survey/respond';
import { GameStatus } from '../../src/domain/gameStatus';

// The respondent's calls on the real server (issue 13): start from the direct link, answer page by
// page as the flow allows, every bad input refused with nothing written, resend idempotent, the
// project's status decides whether the page is open, and the game SDK's survey call.

let server: TestServer;
let link: string;
let pid: number;

beforeAll(async () => {
  server = await startServer();
  ({ pid, link } = await insertSurveyProject(server, surveyContent()));
});
afterAll(() => server.close());

async function start(token = link) {
  const res = await server.call('POST', `/survey/${token}/start`, { body: {} });
  expect(res.status).toBe(200);
  expect(res.body.state).toBe('started');
  return res.body.token as string;
}
const answer = (rt: string, at: number, questionId: string, reply: unknown) =>
  server.call('POST', '/survey/answer', {
    body: { at, questionId, reply },
    headers: { 'x-respondent-token': rt },
  });
const session = (rt: string) =>
  server.call('GET', '/survey/session', { headers: { 'x-respondent-token': rt } });

async function snapshot(rt: string) {
  const s = await session(rt);
  const rows = await server.app.db.selectFrom('respondent_answers').selectAll().orderBy('id').execute();
  return { replies: s.body.replies, status: s.body.status, rows: rows.length };
}

describe('a respondent takes the survey', () => {
  it('says whether the link is open; a real token is never a 404, a made-up one is', async () => {
    const open = await server.call('GET', `/survey/${link}`);
    expect(open.body).toMatchObject({ kind: 'link', state: 'open' });
    for (const [status, state] of [
      [ProjectStatus.OnModeration, 'notStarted'],
      [ProjectStatus.Paused, 'paused'],
      [ProjectStatus.Stopped, 'finished'],
      [ProjectStatus.SurveyFinished, 'finished'],
    ] as const) {
      const p = await insertSurveyProject(server, surveyContent(), { status });
      const res = await server.call('GET', `/survey/${p.link}`);
      expect(res.status).toBe(200);
      expect(res.body.state).toBe(state);
      const refused = await server.call('POST', `/survey/${p.link}/start`, { body: {} });
      expect(refused.status).toBe(409);
      expect(refused.body.state).toBe(state);
      expect(refused.body.message).toBe('The survey is not accepting answers now');
    }
    const missing = await server.call('GET', '/survey/NoSuchToken1234');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('This survey link is not valid');
  });

  it('answers every category page by page, stores rows as the reports read them, and completes', async () => {
    const rt = await start();
    const s = await session(rt);
    expect(s.body.status).toBe('started');
    expect(s.body.content.questionnaires[0].blocks[0].questions).toHaveLength(13);
    for (const [i, q] of ORDER.entries()) {
      const res = await answer(rt, i, q, GOOD[q]);
      expect(res.status, `${q}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.status).toBe(i === ORDER.length - 1 ? 'completed' : 'started');
    }
    const r = await server.app.db
      .selectFrom('respondents')
      .selectAll()
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(r.status).toBe(2);
    expect(r.finished_at).not.toBeNull();
    const state = JSON.parse(r.state);
    expect([...state.orders.few].sort()).toEqual(['f1', 'f2', 'f3']);
    const rows = await server.app.db
      .selectFrom('respondent_answers')
      .selectAll()
      .where('respondent_id', '=', r.id)
      .execute();
    const of = (q: string) =>
      rows.filter((x) => x.question_id === q).map((x) => [x.answer_id, x.statement_id, x.value, x.text]);
    expect(of('few')).toEqual([
      ['f1', null, null, null],
      [null, null, null, 'mine'],
    ]);
    expect(of('rank')).toEqual([
      ['r3', null, 1, null],
      ['r1', null, 2, null],
      ['r2', null, 3, null],
    ]);
    expect(of('matrix')).toEqual([
      ['c1', 's1', null, null],
      ['c2', 's2', null, null],
    ]);
    expect(of('slider')).toEqual([[null, null, 35, null]]);
    expect(of('city')).toEqual([[null, null, null, 'MOS:Podolsk']]);
    // A completed respondent writing again is refused; resending the last page is not an error.
    const again = await answer(rt, 12, 'city', GOOD.city);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('completed');
    const other = await answer(rt, 12, 'city', { text: 'MOS:Khimki' });
    expect(other.status).toBe(409);
    expect(other.body.message).toBe('You have already finished this survey');
  });

  it('refuses every bad input with a clear message and writes nothing', async () => {
    const rt = await start();
    expect((await answer(rt, 0, 'scr', GOOD.scr)).status).toBe(200);
    expect((await answer(rt, 1, 'one', { answers: ['o1'] })).status).toBe(200); // redirects to "open"
    const before = await snapshot(rt);
    const cases: [number, string, unknown, number, string][] = [
      [2, 'nosuch', { text: 'x' }, 400, 'There is no such question in this survey'],
      [2, 'few', { answers: ['f1'] }, 409, 'This question is not the next one in your survey'], // skipped by the redirect
      [5, 'open', { text: 'x' }, 409, 'This question is not the next one in your survey'],
      [2, 'open', { text: '   ' }, 400, 'This field is required'],
      [2, 'open', { text: 'a\u0000b' }, 400, ''],
      [2, 'open', { text: 'x'.repeat(5000) }, 400, 'The answer is too long: at most 2000 characters'],
      // The reply's own shape: the field and the reason, as every other body says them (issue 26).
      [2, 'open', { text: 'x'.repeat(20_000) }, 400, 'reply.text: At most 10000 characters'],
      [2, 'open', { text: 'x', extra: 1 }, 400, 'reply.extra: Unknown field'],
      [2, 'open', 'text', 400, 'reply: Wrong type of value'],
    ];
    for (const [at, q, reply, status, message] of cases) {
      const res = await answer(rt, at, q, reply);
      expect(res.status, `${q} ${JSON.stringify(reply)}`).toBe(status);
      // A NUL byte is refused by the server's body check before the survey sees it (its own message).
      if (message) expect(res.body.message).toBe(message);
      else expect(res.body.message).toBeTruthy();
    }
    // Values out of range, answers not offered, too many answers: on the pages that have them.
    expect((await answer(rt, 2, 'open', { text: 'ok' })).status).toBe(200);
    const mid = await snapshot(rt);
    const bad: [string, unknown, string][] = [
      ['range', { value: 11 }, 'The value must be from 1 to 10'],
      ['range', { value: 2147483648 }, 'The value must be from 1 to 10'],
      ['range', { value: 2.5 }, 'The value must be from 1 to 10'],
      ['range', { value: 'x' }, 'reply.value: Wrong type of value'],
    ];
    for (const [q, reply, message] of bad) {
      const res = await answer(rt, 3, q, reply);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(await snapshot(rt)).toEqual(mid);
    expect(before.replies).toHaveLength(2);

    const rt2 = await start();
    await answer(rt2, 0, 'scr', GOOD.scr);
    await answer(rt2, 1, 'one', GOOD.one);
    const snap = await snapshot(rt2);
    const few: [unknown, string][] = [
      [{ answers: ['f1', 'f2', 'f3'] }, 'Too many answers: at most 2'],
      [{ answers: ['f1', 'f2'], other: 'more' }, 'Too many answers: at most 2'],
      [{ answers: ['zz'] }, 'This answer is not offered in this question'],
      [{ answers: [] }, 'This field is required'],
      [{ answers: ['f1', 'f1'] }, 'The answer is not valid'],
    ];
    for (const [reply, message] of few) {
      const res = await answer(rt2, 2, 'few', reply);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(await snapshot(rt2)).toEqual(snap);
    // Messages in Russian for a Russian browser.
    const ru = await server.call('POST', '/survey/answer', {
      body: { at: 2, questionId: 'few', reply: { answers: [] } },
      headers: { 'x-respondent-token': rt2 },
      locale: 'ru',
    });
    expect(ru.body.message).toBe('Это поле обязательно');
    // A made-up resume token.
    expect((await answer('NoSuchToken1234', 0, 'scr', GOOD.scr)).status).toBe(404);
  });

  it('resending the same page is idempotent; changing an earlier answer replays from there', async () => {
    const rt = await start();
    await answer(rt, 0, 'scr', GOOD.scr);
    await answer(rt, 1, 'one', GOOD.one);
    const snap = await snapshot(rt);
    const twice = await Promise.all([answer(rt, 1, 'one', GOOD.one), answer(rt, 1, 'one', GOOD.one)]);
    expect(twice.map((r) => r.status)).toEqual([200, 200]);
    expect(await snapshot(rt)).toEqual(snap);
    // Back to "one" (reached in order) and pick the redirecting answer: "few" is dropped.
    await answer(rt, 2, 'few', GOOD.few);
    const back = await answer(rt, 1, 'one', { answers: ['o1'] });
    expect(back.status).toBe(200);
    const s = await session(rt);
    expect(s.body.replies.map((r: { questionId: string }) => r.questionId)).toEqual(['scr', 'one']);
    const r = await server.app.db
      .selectFrom('respondents')
      .select('id')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const rows = await server.app.db
      .selectFrom('respondent_answers')
      .select('question_id')
      .where('respondent_id', '=', r.id)
      .execute();
    expect(rows.map((x) => x.question_id).sort()).toEqual(['one', 'scr']);
    // "open" was reached by a redirect: going back past it to "one" is refused.
    await answer(rt, 2, 'open', GOOD.open);
    const refused = await answer(rt, 1, 'one', GOOD.one);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This answer can no longer be changed');
  });

  it('the same new page sent several times at once is stored once, and each answer says so', async () => {
    const rt = await start();
    await answer(rt, 0, 'scr', GOOD.scr);
    const before = await snapshot(rt);
    const sent = await Promise.all(Array.from({ length: 5 }, () => answer(rt, 1, 'one', GOOD.one)));
    expect(sent.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(sent.map((r) => r.body.answered)).toEqual([2, 2, 2, 2, 2]);
    const after = await snapshot(rt);
    expect(after.replies.map((r: { questionId: string }) => r.questionId)).toEqual(['scr', 'one']);
    // "one" picks one answer: one row, written once.
    expect(after.rows - before.rows).toBe(1);
  });

  it('a denying screening answer ends the survey politely and nothing more is taken', async () => {
    const rt = await start();
    const res = await answer(rt, 0, 'scr', { answers: ['no'] });
    expect(res.body.status).toBe('screenedOut');
    expect((await session(rt)).body.status).toBe('screenedOut');
    const more = await answer(rt, 1, 'one', GOOD.one);
    expect(more.status).toBe(409);
  });

  it('limits answers per respondent', async () => {
    const rt = await start();
    const saved = SURVEY_LIMITS.answerPerRespondent;
    SURVEY_LIMITS.answerPerRespondent = 3;
    try {
      for (let i = 0; i < 3; i++) expect((await answer(rt, 0, 'scr', GOOD.scr)).status).toBe(200);
      const limited = await answer(rt, 0, 'scr', GOOD.scr);
      expect(limited.status).toBe(429);
      expect(limited.body.message).toBe('Too many requests. Try again in 1 min.');
    } finally {
      SURVEY_LIMITS.answerPerRespondent = saved;
    }
  });

  it('limits answers per address across respondents, refused answers included', async () => {
    const [a, b] = [await start(), await start()];
    const saved = SURVEY_LIMITS.answerPerAddress;
    SURVEY_LIMITS.answerPerAddress = 3;
    try {
      // The window is per minute and this file's earlier answers came from the same address.
      const first = await answer(a, 0, 'scr', GOOD.scr);
      expect(first.status).toBe(429);
      expect(first.headers.get('retry-after')).toBe('60');
      const bad = await answer(b, 0, 'scr', { answers: 'nope' });
      expect(bad.status).toBe(429);
      expect((await session(a)).body.replies).toEqual([]);
    } finally {
      SURVEY_LIMITS.answerPerAddress = saved;
    }
  });

  it('the paused project answers that it is paused, also to a started respondent', async () => {
    const p = await insertSurveyProject(server, surveyContent());
    const rt = await start(p.link);
    await server.app.db
      .updateTable('projects')
      .set({ status: ProjectStatus.Paused })
      .where('id', '=', p.pid)
      .execute();
    const res = await answer(rt, 0, 'scr', GOOD.scr);
    expect(res.status).toBe(409);
    expect(res.body.state).toBe('paused');
    expect((await session(rt)).body).toMatchObject({ state: 'paused', content: null });
  });

  it('decides answers on what is stored, not on the copy the server keeps of a respondent', async () => {
    const p = await insertSurveyProject(server, surveyContent());
    const rt = await start(p.link);
    expect((await answer(rt, 0, 'scr', GOOD.scr)).status).toBe(200);
    expect((await answer(rt, 1, 'one', GOOD.one)).status).toBe(200);
    const db = server.app.db;
    const { id } = await db
      .selectFrom('respondents')
      .select('id')
      .where('project_id', '=', p.pid)
      .executeTakeFirstOrThrow();
    const stored = async () => {
      const r = await db
        .selectFrom('respondents')
        .select('state')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const rows = await db
        .selectFrom('respondent_answers')
        .select(['question_id', 'answer_id'])
        .where('respondent_id', '=', id)
        .orderBy('question_id')
        .execute();
      return { state: JSON.parse(r.state) as { replies: { questionId: string; reply: unknown }[] }, rows };
    };
    // Paused behind the server's back: refused as paused, nothing written.
    const setStatus = (status: number) =>
      db.updateTable('projects').set({ status }).where('id', '=', p.pid).execute();
    await setStatus(ProjectStatus.Paused);
    const before = await stored();
    const paused = await answer(rt, 2, 'few', GOOD.few);
    expect(paused.status).toBe(409);
    expect(paused.body.state).toBe('paused');
    expect(await stored()).toEqual(before);
    await setStatus(ProjectStatus.OnRotation);
    await answer(rt, 2, 'few', { answers: ['f1'] });
    // Another server process changed page 2 to f2 meanwhile: sending f1 again is a change, not a resend.
    const changed = await stored();
    changed.state.replies[2].reply = { answers: ['f2'] };
    // As every writer of an answer does, it moves updated_at forward (the write's version check).
    const setState = () =>
      db
        .updateTable('respondents')
        .set({ state: JSON.stringify(changed.state), updated_at: sql`updated_at + 1` })
        .where('id', '=', id)
        .execute();
    await setState();
    await db
      .updateTable('respondent_answers')
      .set({ answer_id: 'f2' })
      .where('respondent_id', '=', id)
      .where('question_id', '=', 'few')
      .execute();
    const again = await answer(rt, 2, 'few', { answers: ['f1'] });
    expect(again.status).toBe(200);
    const after = await stored();
    expect(after.state.replies[2].reply).toEqual({ answers: ['f1'] });
    expect(after.rows).toEqual([
      { question_id: 'few', answer_id: 'f1' },
      { question_id: 'one', answer_id: 'o2' },
      { question_id: 'scr', answer_id: 'yes' },
    ]);
    // That process also answered page 3: the same answer sent here is its resend (nothing written).
    changed.state.replies = [...after.state.replies, { questionId: 'qual', reply: { answers: ['q1'] } }];
    await setState();
    const resent = await answer(rt, 3, 'qual', { answers: ['q1'] });
    expect(resent.status).toBe(200);
    expect(resent.body.answered).toBe(4);
    expect((await stored()).rows).toEqual(after.rows);
  });

  it('recordRespondent goes through the same path (the reports demo)', async () => {
    const r = await recordRespondent(server.app.db, {
      projectId: pid,
      attributes: { gender: 'female', age: 30, city: 'MOS:Podolsk' },
      pick: (page) => GOOD[page.question.id] as never,
    });
    expect(r.status).toBe('completed');
    const row = await server.app.db
      .selectFrom('respondents')
      .selectAll()
      .where('id', '=', r.respondentId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ source: 'demo', gender: 'female', age: 30, region: 'MOS', status: 2 });
  });
});

describe('portraits of a direct link', () => {
  it('takes respondents into the portrait they fit and turns a full portrait away politely', async () => {
    const content = surveyContent([
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
    ]);
    const p = await insertSurveyProject(server, content);
    expect((await server.call('GET', `/survey/${p.link}`)).body.profile).toBe(true);
    const startAs = (gender: string) =>
      server.call('POST', `/survey/${p.link}/start`, { body: { attributes: { gender } } });
    const first = await startAs('female');
    const rt = first.body.token;
    for (const [i, q] of ORDER.entries()) await answer(rt, i, q, GOOD[q]);
    const row = await server.app.db
      .selectFrom('respondents')
      .selectAll()
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.portrait_id).toBe('women');
    expect((await startAs('female')).body).toEqual({ state: 'quotaFull' });
    expect((await startAs('male')).body.state).toBe('started');
    const bad = await server.call('POST', `/survey/${p.link}/start`, {
      body: { attributes: { age: 2147483648 } },
    });
    expect(bad.status).toBe(400);
  });
});

describe('the game SDK asks for a survey', () => {
  async function insertGame(status: number) {
    const db = server.app.db;
    const org = await server.createOrganization();
    const id = (t: 'game_genres' | 'game_platforms') =>
      db.selectFrom(t).select('id').executeTakeFirstOrThrow();
    const currency = await db.selectFrom('game_currencies').select('id').executeTakeFirstOrThrow();
    const apiKey = crypto.randomBytes(12).toString('hex');
    const token = crypto.randomBytes(12).toString('hex');
    const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
    const now = Date.now();
    await db
      .insertInto('games')
      .values({
        name: `Game ${apiKey}`,
        name_norm: `game ${apiKey}`,
        organization_id: org,
        genre_id: (await id('game_genres')).id,
        platform_id: (await id('game_platforms')).id,
        currency_id: currency.id,
        status,
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
      .execute();
    return { apiKey, token };
  }
  const player = {
    id: 'p-1',
    gender: 'male',
    age: 25,
    city: 'MOS:Podolsk',
    education: 'higher',
    platform: 'vkPlay',
  };

  it('checks the credentials, answers 204 when no project needs the player, else a one-time address', async () => {
    const game = await insertGame(GameStatus.Connected);
    const wrong = await server.call('POST', '/games/sdk/survey', {
      body: { ...game, token: 'nope', player },
    });
    expect(wrong.status).toBe(401);
    const missing = await server.call('POST', '/games/sdk/survey', { body: { ...game } });
    expect(missing.status).toBe(400);
    expect((await server.call('POST', '/games/sdk/survey', { body: { ...game, player } })).status).toBe(204);

    const content = surveyContent([
      newPortrait({ id: 'young', respondents: 10, params: [{ field: 'age', values: [], min: 18, max: 30 }] }),
    ]);
    await insertSurveyProject(server, content, { template: 'target' });
    const old = await server.call('POST', '/games/sdk/survey', {
      body: { ...game, player: { ...player, id: 'p-2', age: 60 } },
    });
    expect(old.status).toBe(204);
    const res = await server.call('POST', '/games/sdk/survey', { body: { ...game, player } });
    expect(res.status).toBe(200);
    const token = new URL(res.body.url).pathname.split('/').pop()!;
    expect((await server.call('GET', `/survey/${token}`)).body).toMatchObject({
      kind: 'ticket',
      state: 'open',
      used: false,
    });
    const rt = await start(token);
    const row = await server.app.db
      .selectFrom('respondents')
      .selectAll()
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      source: 'sdk',
      player_id: 'p-1',
      age: 25,
      portrait_id: 'young',
      platform: 'vkPlay',
    });
    expect(rt).toBeTruthy();
    const reuse = await server.call('POST', `/survey/${token}/start`, { body: {} });
    expect(reuse.status).toBe(409);
    expect(reuse.body.message).toBe('This survey link has already been used.');
    // The same player is not sent to the same project twice.
    expect((await server.call('POST', '/games/sdk/survey', { body: { ...game, player } })).status).toBe(204);

    const disabled = await insertGame(GameStatus.Disabled);
    expect((await server.call('POST', '/games/sdk/survey', { body: { ...disabled, player } })).status).toBe(
      403,
    );
    const waiting = await insertGame(GameStatus.SdkConnected);
    expect(
      (
        await server.call('POST', '/games/sdk/survey', {
          body: { ...waiting, player: { ...player, id: 'p-9' } },
        })
      ).status,
    ).toBe(204);
  });
});
